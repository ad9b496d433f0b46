import type { ApprovedSender, PairingRequest, Store } from '../../../store/types.js';
import type { Clock } from '../../../core/clock.js';
import { generatePairingCode, normalizePairingCode, type RandomInt } from './code.js';

export { PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH, normalizePairingCode, type RandomInt } from './code.js';
export { approveCommand, pairingReply } from './reply.js';

/** How long a pairing code stays valid by default: one hour. */
export const DEFAULT_PAIRING_TTL_MS = 3_600_000;

/**
 * How many unexpired codes one platform keeps by default. Each sender has at most one; when a new sender would
 * pass the bound, the oldest code is dropped (strangers never lock the list; the store stays small under a flood).
 */
export const DEFAULT_MAX_PENDING = 100;

/** How many fresh codes `request` draws before giving up on collisions (each collision is ~1e-11 likely). */
const MAX_CODE_ATTEMPTS = 20;

/** What `request` did for an unknown sender. */
export type PairingRequestResult =
  /** A new code was made for this sender; `dropped` are the oldest codes removed to stay within the bound. */
  | { readonly kind: 'new'; readonly code: string; readonly expiresAt: number; readonly dropped: readonly PairingRequest[] }
  /** The sender already has an unexpired code; it is reused (never a second one). */
  | { readonly kind: 'pending'; readonly code: string; readonly expiresAt: number };

/** What `approve` did with a code. */
export type PairingApproveResult =
  | { readonly ok: true; readonly senderId: string; readonly senderName: string | null }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' };

/** Pending requests and approved senders, for `hermes pairing list`. */
export interface PairingListing {
  readonly pending: readonly PairingRequest[];
  readonly approved: readonly ApprovedSender[];
}

/** What `new Pairing` takes. */
export interface PairingOptions {
  readonly store: Store;
  readonly clock: Clock;
  /** How long a code stays valid (ms). */
  readonly ttlMs?: number;
  /** Most unexpired codes one platform keeps; at the bound the oldest is dropped for a new sender's. */
  readonly maxPending?: number;
  /** Source of randomness for codes (tests); crypto.randomInt by default. */
  readonly random?: RandomInt;
}

/**
 * Sender pairing: an unknown sender gets a short-lived code, and the owner lets them in by approving
 * it from the CLI. Everything lives in the store, so a CLI process and a running gateway share it.
 */
export class Pairing {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxPending: number;
  private readonly random: RandomInt | undefined;

  /** Uses `store` for state and `clock` for expiry. */
  constructor(params: PairingOptions) {
    this.store = params.store;
    this.clock = params.clock;
    this.ttlMs = params.ttlMs ?? DEFAULT_PAIRING_TTL_MS;
    this.maxPending = params.maxPending ?? DEFAULT_MAX_PENDING;
    this.random = params.random;
    if (!(this.ttlMs > 0)) throw new RangeError(`pairing ttlMs must be positive, got ${this.ttlMs}`);
    if (!Number.isInteger(this.maxPending) || this.maxPending < 1) {
      throw new RangeError(`pairing maxPending must be a positive integer, got ${this.maxPending}`);
    }
  }

  /**
   * Gives an unknown sender a code: their unexpired one if they have it, else a new one, dropping the platform's
   * oldest codes first when it already has `maxPending`. Expired requests are kept one more TTL (so `approve`
   * can say "expired"), then deleted here; so a platform holds at most 2 × `maxPending` rows.
   */
  request(params: { platform: string; senderId: string; senderName?: string | null; chatId: string }): PairingRequestResult {
    const { platform, senderId, chatId } = params;
    const now = this.clock.now();
    this.store.prunePairingRequests({ now: now - this.ttlMs });
    const existing = this.store.pairingRequestForSender({ platform, senderId, now });
    if (existing !== undefined) return { kind: 'pending', code: existing.code, expiresAt: existing.expiresAt };
    const live = this.store.pairingRequests({ platform, now });
    const dropped: PairingRequest[] = [];
    for (const oldest of live.slice(0, Math.max(0, live.length - this.maxPending + 1))) {
      const taken = this.store.takePairingRequest({ platform, code: oldest.code, now });
      if (taken !== undefined) dropped.push(taken);
    }
    const expiresAt = now + this.ttlMs;
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      const code = generatePairingCode({ random: this.random });
      const stored = this.store.createPairingRequest({ platform, code, senderId, senderName: params.senderName ?? null, chatId, expiresAt });
      if (stored !== undefined) return { kind: 'new', code, expiresAt, dropped };
    }
    throw new Error(`no free pairing code on ${platform} after ${MAX_CODE_ATTEMPTS} tries; the random source looks broken`);
  }

  /** Approves the sender holding `code` on `platform` (case and whitespace in the code do not matter). */
  approve(params: { platform: string; code: string }): PairingApproveResult {
    const { platform } = params;
    const code = normalizePairingCode({ code: params.code });
    const taken = this.store.takePairingRequest({ platform, code, now: this.clock.now() });
    if (taken === undefined) {
      const reason = this.store.findPairingRequest({ platform, code }) === undefined ? 'unknown' : 'expired';
      return { ok: false, reason };
    }
    const approved = this.store.approveSender({ platform, senderId: taken.senderId, senderName: taken.senderName });
    return { ok: true, senderId: approved.senderId, senderName: approved.senderName };
  }

  /** Whether the owner let this sender in. */
  isApproved(params: { platform: string; senderId: string }): boolean {
    return this.store.isApprovedSender(params);
  }

  /** Takes a sender's approval away; false when it had none. */
  revoke(params: { platform: string; senderId: string }): boolean {
    return this.store.revokeSender(params);
  }

  /** Unexpired requests and approved senders, for one platform or all. */
  list(params: { platform?: string } = {}): PairingListing {
    const { platform } = params;
    const now = this.clock.now();
    return {
      pending: this.store.pairingRequests(platform === undefined ? { now } : { platform, now }),
      approved: this.store.approvedSenders(platform === undefined ? {} : { platform }),
    };
  }
}
