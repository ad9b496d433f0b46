import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import type { ChatRef, OutboundAttachment, PlatformAdapter } from '../../core/adapter.js';
import { RateLimitError } from '../../core/errors.js';
import { mediaPathOf } from './media.js';

/** One row of the turn's outbox journal: a platform message and the text it shows. */
export interface JournalRow {
  readonly seq: number;
  readonly platformMessageId: string;
  readonly text: string;
  readonly state: 'open' | 'final';
}

/** A text send journaled before its platform call, so a replay can find the message if the answer never came. */
export interface SendIntent {
  readonly seq: number;
  readonly nonce: string;
  /** The newest platform message id known in the chat before the send. */
  readonly afterId?: string;
  readonly text: string;
  /** When it was journaled (ms). */
  readonly sentAt: number;
}

/** Where delivery records what it sent, so a crashed turn can be finished in place. */
export interface DeliveryJournal {
  /** Records a sent message or its new text (upsert by seq); also ends the seq's send intent. */
  record(row: JournalRow): void;
  /** Records a send durably before its platform call (upsert by seq); without it no send can be resolved later. */
  intend?(intent: SendIntent): void;
  /** Platform message ids the journal holds for this chat (any turn): never adopted for an interrupted send. */
  claimedIds?(): ReadonlySet<string>;
}

/** A message an earlier, crashed attempt of the same turn already sent. */
export interface ExistingMessage {
  readonly seq: number;
  readonly platformMessageId: string;
  readonly text: string;
}

interface TextMessage {
  readonly id: string;
  text: string;
  state: 'open' | 'final';
}

/**
 * The turn's messages on the platform, by seq: sends, edits and journals them. Attachments are journaled
 * as rows whose text is their `MEDIA:/path` line, so a replay knows they were sent.
 */
export class SentMessages {
  private readonly texts = new Map<number, TextMessage>();
  private readonly attachments = new Map<string, string>();
  /** Sends whose answer never came (an earlier attempt crashed, or the call failed): resolved before sending again. */
  private readonly pending = new Map<number, SendIntent>();
  private nextAttachmentSeq = 0;

  constructor(
    private readonly params: {
      adapter: PlatformAdapter;
      chat: ChatRef;
      replyToId?: string;
      /** The newest message id known in the chat (when there is no reply-to): interrupted first sends are looked for after it. */
      afterId?: string;
      journal: DeliveryJournal;
      existing?: readonly ExistingMessage[];
      /** Sends of a crashed earlier attempt with no recorded message id: the platform may show them. */
      pending?: readonly SendIntent[];
      /** Time of send intents (default Date.now). */
      clock?: Clock;
      logger?: Logger;
      /** Applied to every text before it is sent or compared (secret redaction); must be deterministic. */
      scrub?: (text: string) => string;
    },
  ) {
    for (const row of params.existing ?? []) {
      const path = mediaPathOf({ line: row.text });
      if (path !== undefined) this.attachments.set(path, row.platformMessageId);
      else this.texts.set(row.seq, { id: row.platformMessageId, text: row.text, state: 'open' });
      this.nextAttachmentSeq = Math.max(this.nextAttachmentSeq, row.seq + 1);
    }
    for (const intent of params.pending ?? []) {
      if (this.texts.has(intent.seq)) continue;
      this.pending.set(intent.seq, intent);
      // Attachments are journaled after the text parts: never on the seq of a part that may still be found.
      this.nextAttachmentSeq = Math.max(this.nextAttachmentSeq, intent.seq + 1);
    }
  }

  /** The text message at `seq`, if one was sent. */
  get(params: { seq: number }): { readonly id: string; readonly text: string } | undefined {
    return this.texts.get(params.seq);
  }

  /** Seqs of text messages, ascending. */
  seqs(): number[] {
    return [...this.texts.keys()].sort((a, b) => a - b);
  }

  /** Whether an attachment with this path was already sent for this turn. */
  hasAttachment(params: { path: string }): boolean {
    return this.attachments.has(params.path);
  }

  /** Platform ids of the text messages (by seq) and then the attachments. */
  ids(): string[] {
    return [...this.seqs().map((seq) => this.texts.get(seq)?.id ?? ''), ...this.attachments.values()];
  }

  /** Whether showing `text` at `seq` takes a platform call (a send, or an edit to a different text). */
  needsCall(params: { seq: number; text: string }): boolean {
    return this.texts.get(params.seq)?.text !== this.clean(params.text);
  }

  /** The text as the platform may see it. */
  private clean(text: string): string {
    return this.params.scrub ? this.params.scrub(text) : text;
  }

  /**
   * Makes the message at `seq` show `text`: an edit when it exists (skipped if unchanged), else a send.
   * Resolves true when the platform was called.
   */
  async put(params: { seq: number; text: string; state: 'open' | 'final'; attachments?: readonly OutboundAttachment[] }): Promise<boolean> {
    const { adapter, chat } = this.params;
    const text = this.clean(params.text);
    const message = this.texts.get(params.seq);
    if (message) {
      if (message.text === text && message.state === params.state) return false;
      const call = message.text !== text;
      if (call) await adapter.edit({ chat, messageId: message.id, text });
      message.text = text;
      message.state = params.state;
      this.record({ seq: params.seq, platformMessageId: message.id, text, state: params.state });
      return call;
    }
    if (this.pending.has(params.seq) && (await this.adoptPending({ seq: params.seq }))) return this.put(params);
    const replyToId = params.seq === 0 ? this.params.replyToId : undefined;
    const attachments = params.attachments ?? [];
    const intent = attachments.length === 0 ? this.intend({ seq: params.seq, text }) : undefined;
    let sent: { messageId: string };
    try {
      sent = await adapter.send({
        chat,
        text,
        ...(replyToId === undefined ? {} : { replyToId }),
        ...(attachments.length === 0 ? {} : { attachments }),
        ...(intent === undefined ? {} : { nonce: intent.nonce }),
      });
    } catch (error) {
      // A rate limit means nothing was sent; any other failure may have come after the platform accepted it.
      if (intent !== undefined && !(error instanceof RateLimitError)) this.pending.set(params.seq, intent);
      throw error;
    }
    this.texts.set(params.seq, { id: sent.messageId, text, state: params.state });
    this.nextAttachmentSeq = Math.max(this.nextAttachmentSeq, params.seq + 1);
    this.record({ seq: params.seq, platformMessageId: sent.messageId, text, state: params.state });
    for (const attachment of attachments) this.journalAttachment({ attachment, messageId: sent.messageId });
    return true;
  }

  /**
   * Journals a text send before its call, when the adapter can resolve interrupted sends (else nothing to journal).
   * A failed journal write is logged and the send goes ahead, as before intents existed.
   */
  private intend(params: { seq: number; text: string }): SendIntent | undefined {
    const { adapter, journal } = this.params;
    if (adapter.resolveSend === undefined || journal.intend === undefined) return undefined;
    const afterId = this.texts.get(params.seq - 1)?.id ?? this.params.replyToId ?? this.params.afterId;
    const intent: SendIntent = {
      seq: params.seq,
      // 15 random bytes: 20 characters, within Discord's 25 for a nonce.
      nonce: randomBytes(15).toString('base64url'),
      text: params.text,
      sentAt: this.params.clock?.now() ?? Date.now(),
      ...(afterId === undefined ? {} : { afterId }),
    };
    try {
      journal.intend(intent);
    } catch (error) {
      this.params.logger?.error({ err: error, seq: params.seq }, 'could not journal a send before making it; a crash now could leave it orphaned');
    }
    return intent;
  }

  /**
   * Asks the platform for the message an interrupted send at `seq` created, and adopts it (true). False when
   * the platform shows none: the caller sends anew. Rethrows when the platform could not tell yet (kept pending).
   */
  private async adoptPending(params: { seq: number; retire?: boolean }): Promise<boolean> {
    const { adapter, chat, logger } = this.params;
    const intent = this.pending.get(params.seq);
    if (intent === undefined || adapter.resolveSend === undefined) return false;
    const exclude = new Set([...(this.params.journal.claimedIds?.() ?? []), ...[...this.texts.values()].map((m) => m.id), ...this.attachments.values()]);
    const replyToId = params.seq === 0 ? this.params.replyToId : undefined;
    const found = await adapter.resolveSend({
      chat,
      nonce: intent.nonce,
      text: intent.text,
      sentAt: intent.sentAt,
      exclude,
      ...(params.retire === true ? { retire: true } : {}),
      ...(replyToId === undefined ? {} : { replyToId }),
      ...(intent.afterId === undefined ? {} : { afterId: intent.afterId }),
    });
    this.pending.delete(params.seq);
    if (found === undefined || exclude.has(found.messageId)) {
      const next = params.retire === true ? 'nothing to close' : 'sending it anew';
      logger?.warn({ seq: params.seq }, `an interrupted send left no message the platform could point to; ${next}`);
      return false;
    }
    logger?.info({ seq: params.seq, messageId: found.messageId }, 'adopted the message an interrupted send created');
    this.texts.set(params.seq, { id: found.messageId, text: intent.text, state: 'open' });
    this.nextAttachmentSeq = Math.max(this.nextAttachmentSeq, params.seq + 1);
    this.record({ seq: params.seq, platformMessageId: found.messageId, text: intent.text, state: 'open' });
    return true;
  }

  /** Whether interrupted sends at `fromSeq` or beyond wait to be looked up. */
  hasPending(params: { fromSeq: number }): boolean {
    return [...this.pending.keys()].some((seq) => seq >= params.fromSeq);
  }

  /**
   * Looks for the messages of interrupted sends at `fromSeq` and beyond, parts the finished reply no longer reaches
   * (a replay's answer came out shorter): found ones are adopted, so the caller closes them like any extra message.
   */
  async retirePending(params: { fromSeq: number }): Promise<void> {
    for (const seq of [...this.pending.keys()].sort((a, b) => a - b)) {
      if (seq >= params.fromSeq) await this.adoptPending({ seq, retire: true });
    }
  }

  /** Sends one file as its own message and journals it. */
  async sendAttachment(params: { attachment: OutboundAttachment }): Promise<void> {
    const { adapter, chat } = this.params;
    const sent = await adapter.send({ chat, text: '', attachments: [params.attachment] });
    this.journalAttachment({ attachment: params.attachment, messageId: sent.messageId });
  }

  /** Remembers and journals an attachment the platform accepted (alone or with a text message). */
  private journalAttachment(params: { attachment: OutboundAttachment; messageId: string }): void {
    const seq = this.nextAttachmentSeq++;
    const named = params.attachment.sourcePath ?? params.attachment.path;
    this.attachments.set(named, params.messageId);
    this.record({ seq, platformMessageId: params.messageId, text: `MEDIA:${named}`, state: 'final' });
  }

  /** Journals a row; a journal failure is logged, never mistaken for a failed platform call. */
  private record(row: JournalRow): void {
    try {
      this.params.journal.record(row);
    } catch (error) {
      this.params.logger?.error({ err: error, seq: row.seq }, 'could not journal a sent message; a replay may send it again');
    }
  }
}
