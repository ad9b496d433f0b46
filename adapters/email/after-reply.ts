import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AdapterStorage } from '../../src/core/adapter.js';
import { describeImapError } from './imap-client.js';
import { mailPlaceSchema, type MailPlace } from './threads.js';


const pendingSchema = z.array(mailPlaceSchema);
/** The storage key of places still to flag (the IMAP connection was down when their reply went out). */
const storageKey = 'after-reply-pending';
/** Most places kept waiting; older ones are dropped (the mail then just stays unread). */
const maxPending = 500;

/**
 * What happens to an inbound mail once its reply was accepted by SMTP: flagged \Seen, or moved to a folder.
 * Never before the reply went out, so a failed send leaves the mail unread. When IMAP is down at that moment the
 * place is kept (persisted) and handled after the next connect.
 */
export class AfterReply {
  private readonly storage: AdapterStorage;
  private readonly mode: 'seen' | 'move';
  private readonly moveTo: string | undefined;
  private readonly logger: Logger;

  constructor(params: { storage: AdapterStorage; mode: 'seen' | 'move'; moveTo?: string; logger: Logger }) {
    this.storage = params.storage;
    this.mode = params.mode;
    this.moveTo = params.moveTo;
    this.logger = params.logger;
  }

  /** Flags or moves the mail now if `client` has its folder open, else keeps it for `flush`. Never throws. */
  async apply(params: { client: ImapFlow | undefined; place: MailPlace }): Promise<void> {
    const done = await this.tryApply(params);
    if (!done) this.save({ places: [...this.pending(), params.place] });
  }

  /** Handles the places kept while IMAP was down (called after each connect). Never throws. */
  async flush(params: { client: ImapFlow }): Promise<void> {
    const waiting = this.pending();
    if (waiting.length === 0) return;
    const left: MailPlace[] = [];
    for (const place of waiting) if (!(await this.tryApply({ client: params.client, place }))) left.push(place);
    this.save({ places: left });
  }

  /** True when the place was handled or can never be (its UIDs are gone); false to try again later. */
  private async tryApply(params: { client: ImapFlow | undefined; place: MailPlace }): Promise<boolean> {
    const { client, place } = params;
    const mailbox = client?.mailbox;
    if (client === undefined || !client.usable || mailbox === undefined || mailbox === false || mailbox.path !== place.folder) return false;
    if (String(mailbox.uidValidity) !== place.uidValidity) return true;
    try {
      if (this.mode === 'seen') {
        await client.messageFlagsAdd(String(place.uid), ['\\Seen'], { uid: true });
      } else if (this.moveTo !== undefined) {
        let moved = await client.messageMove(String(place.uid), this.moveTo, { uid: true }).catch(() => false as const);
        if (moved === false) {
          await client.mailboxCreate(this.moveTo).catch(() => undefined);
          moved = await client.messageMove(String(place.uid), this.moveTo, { uid: true });
        }
        if (moved === false) throw new Error(`could not move it to ${this.moveTo}`);
      }
      return true;
    } catch (error) {
      this.logger.warn({ err: describeImapError({ error }), uid: place.uid, folder: place.folder }, `answered mail not ${this.mode === 'seen' ? 'flagged \\Seen' : 'moved'} yet; trying again after the next connect`);
      return false;
    }
  }

  private pending(): MailPlace[] {
    const raw = this.storage.get({ name: storageKey });
    if (raw === undefined) return [];
    try {
      return pendingSchema.parse(JSON.parse(raw));
    } catch {
      return [];
    }
  }

  private save(params: { places: readonly MailPlace[] }): void {
    this.storage.set({ name: storageKey, value: JSON.stringify(params.places.slice(-maxPending)) });
  }
}
