import { z } from 'zod';
import type { AdapterStorage } from '../../src/core/adapter.js';

/** Where an inbound mail lies in IMAP: its folder, the folder's UIDVALIDITY and its UID. */
export const mailPlaceSchema = z.object({ folder: z.string(), uidValidity: z.string(), uid: z.number().int().positive() });
/** Where an inbound mail lies in IMAP. */
export type MailPlace = z.infer<typeof mailPlaceSchema>;

/** A mail the adapter saw or sent, as far as threading and replying need it. */
export const knownMailSchema = z.object({
  /** Its Message-ID, without brackets. */
  id: z.string().min(1),
  /** The Message-ID of its thread's first mail (the session's thread id). */
  root: z.string().min(1),
  subject: z.string(),
  /** Its own References, trimmed (without brackets). */
  references: z.array(z.string()),
  /** The other party's address, lowercase. */
  peer: z.string(),
  /** Where an inbound mail lies in IMAP, to flag or move it after the reply. */
  source: mailPlaceSchema.optional(),
});
/** A mail the adapter saw or sent. */
export type KnownMail = z.infer<typeof knownMailSchema>;

const storedSchema = z.array(knownMailSchema);
/** The storage key of the index. */
const storageKey = 'threads';

/**
 * The thread root of a mail: the root of the newest mail it answers that is known (In-Reply-To first, then
 * References from the newest), else the first id of its References (how mail clients thread), else itself.
 */
export function resolveRoot(params: { id: string; inReplyTo: readonly string[]; references: readonly string[]; rootOf: (id: string) => string | undefined }): string {
  const candidates = [...params.inReplyTo, ...[...params.references].reverse()];
  for (const candidate of candidates) {
    const root = params.rootOf(candidate);
    if (root !== undefined) return root;
  }
  return params.references[0] ?? params.inReplyTo[0] ?? params.id;
}

/**
 * Message-ID → what is known about the mail, bounded (least recently used forgotten first) and persisted in the
 * adapter's storage, so a reply to the bot's own reply continues its thread across restarts.
 */
export class ThreadIndex {
  private readonly mails = new Map<string, KnownMail>();
  private readonly storage: AdapterStorage;
  private readonly max: number;

  constructor(params: { storage: AdapterStorage; max?: number; onCorrupt?: (error: unknown) => void }) {
    this.storage = params.storage;
    this.max = Math.max(1, params.max ?? 1000);
    const stored = params.storage.get({ name: storageKey });
    if (stored === undefined) return;
    try {
      for (const mail of storedSchema.parse(JSON.parse(stored))) this.mails.set(mail.id, mail);
    } catch (error) {
      params.onCorrupt?.(error);
    }
  }

  /** What is known about the mail with this id. */
  get(params: { id: string }): KnownMail | undefined {
    return this.mails.get(params.id);
  }

  /** The thread root of a known mail. */
  rootOf(params: { id: string }): string | undefined {
    return this.mails.get(params.id)?.root;
  }

  /** The most recently remembered mail of a thread (what a follow-up mail in it answers), of one peer when given. */
  latestIn(params: { root: string; peer?: string }): KnownMail | undefined {
    let latest: KnownMail | undefined;
    for (const mail of this.mails.values()) if (mail.root === params.root && (params.peer === undefined || mail.peer === params.peer)) latest = mail;
    return latest;
  }

  /** Remembers a mail (as the newest) and persists the index. */
  remember(params: { mail: KnownMail }): void {
    this.mails.delete(params.mail.id);
    this.mails.set(params.mail.id, params.mail);
    while (this.mails.size > this.max) {
      const oldest = this.mails.keys().next();
      if (oldest.done) break;
      this.mails.delete(oldest.value);
    }
    this.storage.set({ name: storageKey, value: JSON.stringify([...this.mails.values()]) });
  }
}
