import type { Logger } from 'pino';
import type { ChatRef, OutboundAttachment, PlatformAdapter } from '../contracts.js';
import { mediaPathOf } from './media.js';

/** One row of the turn's outbox journal: a platform message and the text it shows. */
export interface JournalRow {
  readonly seq: number;
  readonly platformMessageId: string;
  readonly text: string;
  readonly state: 'open' | 'final';
}

/** Where delivery records what it sent, so a crashed turn can be finished in place. */
export interface DeliveryJournal {
  /** Records a sent message or its new text (upsert by seq). */
  record(row: JournalRow): void;
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
  private nextAttachmentSeq = 0;

  constructor(
    private readonly params: {
      adapter: PlatformAdapter;
      chat: ChatRef;
      replyToId?: string;
      journal: DeliveryJournal;
      existing?: readonly ExistingMessage[];
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
    const replyToId = params.seq === 0 ? this.params.replyToId : undefined;
    const attachments = params.attachments ?? [];
    const sent = await adapter.send({
      chat,
      text,
      ...(replyToId === undefined ? {} : { replyToId }),
      ...(attachments.length === 0 ? {} : { attachments }),
    });
    this.texts.set(params.seq, { id: sent.messageId, text, state: params.state });
    this.nextAttachmentSeq = Math.max(this.nextAttachmentSeq, params.seq + 1);
    this.record({ seq: params.seq, platformMessageId: sent.messageId, text, state: params.state });
    for (const attachment of attachments) this.journalAttachment({ attachment, messageId: sent.messageId });
    return true;
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
    this.attachments.set(params.attachment.path, params.messageId);
    this.record({ seq, platformMessageId: params.messageId, text: `MEDIA:${params.attachment.path}`, state: 'final' });
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
