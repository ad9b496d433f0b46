import type { FetchMessageObject, ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { AdapterStorage } from '../../src/core/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { loadCursor, planRead, saveCursor, type FolderCursor } from './cursor.js';

/** One mail as read from the folder. */
export interface FetchedMail {
  readonly folder: string;
  readonly uidValidity: string;
  readonly uid: number;
  /** The raw RFC 822 source (cut at the read limit when `truncated`). */
  readonly raw: Buffer;
  /** The mail was larger than the read limit; its attachments are incomplete. */
  readonly truncated: boolean;
  /** Its full size in bytes. */
  readonly size: number;
}

/** The INTERNALDATE of a fetched message in ms (0 when the server gave none). */
function internalDateOf(params: { message: FetchMessageObject }): number {
  const value = params.message.internalDate;
  if (value === undefined) return 0;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * Reads one IMAP folder exactly once per mail, across restarts: a cursor (UIDVALIDITY, last UID, last
 * INTERNALDATE) is persisted after each mail is handled. A first start leaves the mail already there alone; a
 * changed UIDVALIDITY reads only mail newer than the last one handled (Message-ID dedupe catches the rest).
 */
export class FolderReader {
  private readonly client: ImapFlow;
  private readonly folder: string;
  private readonly storage: AdapterStorage;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly maxSourceBytes: number;
  private readonly handle: (mail: FetchedMail) => Promise<void>;
  private cursor: FolderCursor | undefined;
  /** Set by `open` when the UIDVALIDITY changed; the next `readNew` handles it. */
  private revalidation: { since: number; previous: FolderCursor; uidValidity: string; uidNext: number } | undefined;

  constructor(params: {
    client: ImapFlow;
    folder: string;
    storage: AdapterStorage;
    clock: Clock;
    logger: Logger;
    maxSourceBytes: number;
    handle: (mail: FetchedMail) => Promise<void>;
  }) {
    this.client = params.client;
    this.folder = params.folder;
    this.storage = params.storage;
    this.clock = params.clock;
    this.logger = params.logger;
    this.maxSourceBytes = params.maxSourceBytes;
    this.handle = params.handle;
  }

  /** Opens the folder and reconciles the stored cursor with it (a UIDVALIDITY change is read by `readNew`). */
  async open(): Promise<void> {
    const mailbox = await this.client.mailboxOpen(this.folder);
    const uidValidity = String(mailbox.uidValidity);
    const plan = planRead({ stored: loadCursor({ storage: this.storage, folder: this.folder }), uidValidity, uidNext: mailbox.uidNext, now: this.clock.now() });
    if (plan.kind === 'anchor') {
      this.logger.info({ folder: this.folder, existing: mailbox.exists }, 'first start on this folder: mail already in it is left alone; new mail is answered');
      this.commit({ cursor: plan.cursor });
      return;
    }
    if (plan.kind === 'resume') {
      this.cursor = plan.cursor;
      return;
    }
    this.logger.warn({ folder: this.folder, was: plan.previous.uidValidity, now: uidValidity }, 'the folder UIDVALIDITY changed: reading only mail newer than the last one handled');
    this.revalidation = { since: plan.since, previous: plan.previous, uidValidity, uidNext: mailbox.uidNext };
  }

  /** After a UIDVALIDITY change: reads the mail at least as new as the last one handled, then re-anchors. */
  private async revalidate(params: { since: number; previous: FolderCursor; uidValidity: string; uidNext: number }): Promise<void> {
    const { uidValidity } = params;
    // INTERNALDATE has whole seconds: compare from the start of the second of the last mail handled.
    const since = Math.floor(params.since / 1000) * 1000;
    const found = await this.client.search({ since: new Date(since) }, { uid: true });
    const uids = Array.isArray(found) ? found : [];
    let progress = params.previous;
    if (uids.length > 0) {
      const metas = await this.client.fetchAll(uids.join(','), { uid: true, size: true, internalDate: true }, { uid: true });
      for (const meta of metas.sort((a, b) => a.uid - b.uid)) {
        const date = internalDateOf({ message: meta });
        if (date < since) continue;
        await this.readOne({ meta, uidValidity });
        // Progress stays under the old UIDVALIDITY until the end: a crash in between repeats this pass.
        progress = { ...progress, lastDate: Math.max(progress.lastDate, date) };
        this.commit({ cursor: progress });
      }
    }
    this.revalidation = undefined;
    this.commit({ cursor: { uidValidity, lastUid: Math.max(0, params.uidNext - 1), lastDate: progress.lastDate } });
  }

  /** Reads and hands on every mail after the cursor, advancing it after each one. */
  async readNew(): Promise<void> {
    if (this.revalidation !== undefined) await this.revalidate(this.revalidation);
    const cursor = this.cursor;
    if (cursor === undefined) throw new Error('FolderReader.readNew before open');
    const metas = await this.client.fetchAll(`${cursor.lastUid + 1}:*`, { uid: true, size: true, internalDate: true }, { uid: true });
    // "n:*" always includes the highest UID, even when it is below n.
    for (const meta of metas.filter((m) => m.uid > cursor.lastUid).sort((a, b) => a.uid - b.uid)) {
      await this.readOne({ meta, uidValidity: cursor.uidValidity });
      const current = this.cursor ?? cursor;
      this.commit({ cursor: { ...current, lastUid: meta.uid, lastDate: Math.max(current.lastDate, internalDateOf({ message: meta })) } });
    }
  }

  private async readOne(params: { meta: FetchMessageObject; uidValidity: string }): Promise<void> {
    const { meta } = params;
    const size = meta.size ?? 0;
    const truncated = size > this.maxSourceBytes;
    const message = await this.client.fetchOne(String(meta.uid), { uid: true, source: truncated ? { maxLength: this.maxSourceBytes } : true }, { uid: true });
    if (message === false || message.source === undefined) {
      this.logger.warn({ uid: meta.uid, folder: this.folder }, 'a mail vanished before it could be read (deleted or moved by another client)');
      return;
    }
    await this.handle({ folder: this.folder, uidValidity: params.uidValidity, uid: meta.uid, raw: message.source, truncated, size });
  }

  private commit(params: { cursor: FolderCursor }): void {
    this.cursor = params.cursor;
    saveCursor({ storage: this.storage, folder: this.folder, cursor: params.cursor });
  }
}
