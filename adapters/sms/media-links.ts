import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Clock } from '../../src/core/clock.js';

/** The signature over a media path and its expiry (hex HMAC-SHA256). */
export function signMediaPath(params: { key: Buffer; path: string; expiresAt: number }): string {
  return createHmac('sha256', params.key).update(`${params.path}\n${params.expiresAt}`).digest('hex');
}

/** What a request for a media link gets. */
export type MediaLinkCheck =
  | { readonly kind: 'ok'; readonly file: string; readonly contentType: string }
  /** Signature missing or wrong (a forged or altered link): 403. */
  | { readonly kind: 'forbidden' }
  /** Signed, but past its expiry or no longer known (e.g. after a restart): 410. */
  | { readonly kind: 'expired' };

/** Whether `signature` is the right one for `path` and `expiresAt`, compared in constant time. */
export function verifyMediaPath(params: { key: Buffer; path: string; expiresAt: number; signature: string }): boolean {
  const expected = Buffer.from(signMediaPath(params), 'hex');
  const given = /^[0-9a-f]+$/i.test(params.signature) ? Buffer.from(params.signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** MIME types of the pictures MMS carries everywhere (Twilio's fully supported ones), by extension. */
export const MMS_IMAGE_TYPES: Readonly<Record<string, string>> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif' };

interface Entry {
  readonly file: string;
  readonly contentType: string;
  readonly expiresAt: number;
}

/**
 * Signed, expiring public links to files the gateway already decided to send (Twilio fetches MMS media by URL).
 * Only files handed to `link` are ever served: a link names a random id, not a path, and its signature (HMAC over
 * path and expiry, with a key made per process) must match. Links are kept in memory, bounded, and die on restart.
 */
export class MediaLinks {
  private readonly key: Buffer;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  /** The public URL the media route is reachable at (e.g. https://bot.example.com/sms/twilio/media). */
  private readonly publicBase: string;
  /** The local path of the media route (e.g. /sms/twilio/media). */
  private readonly localBase: string;
  private readonly maxLinks: number;
  private readonly entries = new Map<string, Entry>();

  constructor(params: { clock: Clock; ttlMs: number; publicBase: string; localBase: string; maxLinks?: number; key?: Buffer }) {
    this.key = params.key ?? randomBytes(32);
    this.clock = params.clock;
    this.ttlMs = params.ttlMs;
    this.publicBase = params.publicBase.replace(/\/+$/, '');
    this.localBase = params.localBase.replace(/\/+$/, '');
    this.maxLinks = params.maxLinks ?? 1000;
  }

  /** A public link to `file` (an approved MMS picture), valid for the configured time. */
  link(params: { file: string; contentType: string }): string {
    this.prune();
    const id = randomBytes(16).toString('hex');
    const expiresAt = this.clock.now() + this.ttlMs;
    const name = encodeURIComponent(path.basename(params.file).replace(/[^\w.-]+/g, '_'));
    const suffix = `/${id}/${name}`;
    this.entries.set(id, { file: params.file, contentType: params.contentType, expiresAt });
    const signature = signMediaPath({ key: this.key, path: `${this.localBase}${suffix}`, expiresAt });
    return `${this.publicBase}${suffix}?expires=${expiresAt}&sig=${signature}`;
  }

  /** Checks a request for a link: its local path (`<localBase>/<id>/<name>`), `expires` and `sig` query values. */
  check(params: { path: string; expires: string | undefined; sig: string | undefined }): MediaLinkCheck {
    const expiresAt = Number(params.expires);
    const id = params.path.slice(this.localBase.length + 1).split('/')[0] ?? '';
    if (!params.path.startsWith(`${this.localBase}/`) || !Number.isSafeInteger(expiresAt) || params.sig === undefined) return { kind: 'forbidden' };
    if (!verifyMediaPath({ key: this.key, path: params.path, expiresAt, signature: params.sig })) return { kind: 'forbidden' };
    const entry = this.entries.get(id);
    if (expiresAt <= this.clock.now() || entry === undefined || entry.expiresAt <= this.clock.now()) return { kind: 'expired' };
    return { kind: 'ok', file: entry.file, contentType: entry.contentType };
  }

  /** Forgets expired links, then the oldest ones beyond the bound. */
  private prune(): void {
    const now = this.clock.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt <= now || this.entries.size >= this.maxLinks) this.entries.delete(id);
    }
  }
}
