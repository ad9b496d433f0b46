import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import type { ChatRef, OutboundAttachment, PlatformAdapter } from '../../core/adapter.js';
import type { MediaStager } from './media-stage.js';
import { checkAttachments } from './attachments.js';
import { extractMedia, mediaKindFor, visibleStreamingText, type MediaRef } from './media.js';
import type { ChatPacer } from './pacer.js';
import { SentMessages, type DeliveryJournal, type ExistingMessage, type SendIntent } from './sent-messages.js';
import { previewText, progressLineMarkup } from './preview.js';
import { MIN_SPLIT_LIMIT, reopenPrefix, splitMessage, takeChunk } from './split.js';
import { errorMessage } from '../../util/error-text.js';

/** What a StreamDelivery is built from. */
export interface StreamDeliveryParams {
  readonly adapter: PlatformAdapter;
  readonly chat: ChatRef;
  /** The inbound message the first reply message answers. */
  readonly replyToId?: string;
  /** The newest message id known in the chat before this delivery (no reply-to): where an interrupted first send is looked for. */
  readonly afterId?: string;
  readonly pacer: ChatPacer;
  /** Key the pacer counts this chat under. */
  readonly chatKey: string;
  readonly clock: Clock;
  /** Appended to the text while it streams (e.g. ' ▉'). */
  readonly cursor: string;
  readonly journal: DeliveryJournal;
  /** Messages a crashed earlier attempt of this same turn already sent; they are edited, never sent again. */
  readonly existing?: readonly ExistingMessage[];
  /** Sends a crashed earlier attempt made whose message id was never recorded: found on the platform before sending anew. */
  readonly pending?: readonly SendIntent[];
  readonly logger?: Logger;
  /** Stops all platform calls when aborted. */
  readonly signal?: AbortSignal;
  /** Refuses files a MEDIA line may not send (see gateway/media-policy.ts); all are allowed without it. */
  readonly mediaPolicy?: (params: { path: string }) => Promise<string | undefined>;
  /** Copies each file that passed the policy aside and checks the copy: the upload reads only the copy. */
  readonly stageMedia?: MediaStager;
  /** Applied to every text before it reaches the platform (secret redaction). */
  readonly scrub?: (text: string) => string;
  /** How much of the streaming text may be shown yet: an end that could still become a secret is held back until finish. */
  readonly safeLength?: (params: { text: string }) => number;
}

/** How a turn's reply ended up on the platform. */
export interface DeliveryResult {
  /** Platform ids of the reply's text messages (by seq), then of its attachments. */
  readonly messageIds: string[];
  /** The full reply text delivered (MEDIA lines stripped, notes included). */
  readonly finalText: string;
  /** Attachments on the platform for this reply (including ones an earlier attempt sent). */
  readonly attachmentsSent: number;
  /** What could not be delivered, one sentence each. */
  readonly errors: string[];
  /** Every part of the text reached the platform in its final form (attachments aside). */
  readonly textComplete: boolean;
}

/** Attempts for each final send or edit that fails for a reason other than a rate limit. */
const FINAL_ATTEMPTS = 3;
const LEADING_BLANK_LINES = /^(?:[ \t]*\r?\n)+/;

/**
 * Delivers one turn's streamed reply: shows it growing in a message edited at the pacer's rate (with a cursor),
 * moves on to a new message when one fills up, and finally edits everything in place to the finished text
 * and sends the MEDIA attachments. Platforms without edits get the finished text only.
 */
export class StreamDelivery {
  private readonly params: StreamDeliveryParams;
  private readonly messages: SentMessages;
  private readonly maxLength: number;
  /** Longest text a message may show while streaming: room is left for the cursor. */
  private readonly streamLimit: number;
  private readonly startedAt: number;
  private raw = '';
  private dirty = false;
  private looping = false;
  private loopDone: Promise<void> = Promise.resolve();
  /** Set by finish/halt: no more streaming updates. */
  private stopped = false;
  /** Texts of the messages finalized while streaming, by seq. */
  private readonly committed: string[] = [];
  /** How much of the visible text those messages cover. */
  private consumed = 0;
  /** The fence line open where the uncommitted text starts. */
  private carry: string | null = null;
  /** How much of the visible text safeLength released so far: never taken back. */
  private released = 0;
  private finished: Promise<DeliveryResult> | undefined;
  /** Tool activity shown below the streamed text while the reply is open (never in the final text). */
  private progressLines: readonly string[] = [];
  /** Tool activity lines an adapter that shows them itself (a terminal) has not been given yet, with how much text came before each. */
  private unprinted: { line: string; at: number }[] = [];
  /** Files sent after the reply's own MEDIA files (a spoken reply's voice notes), each path once. */
  private readonly attached: MediaRef[] = [];

  constructor(params: StreamDeliveryParams) {
    this.params = params;
    this.maxLength = params.adapter.capabilities.maxMessageLength;
    this.streamLimit = this.maxLength - params.cursor.length;
    if (this.streamLimit < MIN_SPLIT_LIMIT) {
      throw new RangeError(
        `Adapter "${params.adapter.name}" allows ${this.maxLength} characters per message, too few to stream with the ` +
          `cursor ${JSON.stringify(params.cursor)}: raise capabilities.maxMessageLength or shorten the cursor.`,
      );
    }
    this.startedAt = params.clock.now();
    this.messages = new SentMessages({
      adapter: params.adapter,
      chat: params.chat,
      journal: params.journal,
      ...(params.replyToId === undefined ? {} : { replyToId: params.replyToId }),
      ...(params.afterId === undefined ? {} : { afterId: params.afterId }),
      ...(params.existing === undefined ? {} : { existing: params.existing }),
      ...(params.pending === undefined ? {} : { pending: params.pending }),
      clock: params.clock,
      ...(params.logger === undefined ? {} : { logger: params.logger }),
      ...(params.scrub === undefined ? {} : { scrub: params.scrub }),
    });
  }

  /** Adds streamed text. Never blocks and never throws; the update is scheduled. */
  push(delta: string): void {
    if (this.stopped || delta === '') return;
    this.raw += delta;
    this.schedule();
  }

  /**
   * Sends a file with the finished reply, after the files its MEDIA lines name, under the same checks (the media
   * policy, the secret scan), as a MEDIA line would but whatever the text holds (an unclosed code fence would swallow
   * a line).
   */
  attach(params: { path: string }): void {
    if (this.stopped || this.attached.some((item) => item.path === params.path)) return;
    this.attached.push({ path: params.path, kind: mediaKindFor({ path: params.path }) });
  }

  /**
   * Shows tool activity while the reply is open: `lines` below the text streamed so far (cursor after) on the
   * normal paced edits, gone from the final text; an adapter with `showToolProgress` gets each `added` line instead,
   * after the text streamed before it. Platforms without edits show none. Never blocks and never throws.
   */
  progress(params: { lines: readonly string[]; added?: string }): void {
    if (this.stopped) return;
    const { adapter } = this.params;
    if (adapter.showToolProgress !== undefined) {
      if (params.added === undefined) return;
      this.unprinted.push({ line: params.added, at: this.raw.length });
    } else this.progressLines = params.lines.map((line) => progressLineMarkup({ line, markup: adapter.capabilities.markup }));
    this.schedule();
  }

  /** Starts the streaming loop when the platform edits; one running loop picks up every later change. */
  private schedule(): void {
    if (!this.params.adapter.capabilities.edit) return;
    this.dirty = true;
    if (this.looping) return;
    this.looping = true;
    this.loopDone = this.loop();
  }

  /** Whether the platform shows a message of this reply already (streamed text or tool activity). */
  get started(): boolean {
    return this.messages.seqs().length > 0;
  }

  /** Finishes the reply: final text edited in place (no cursor), `note` appended, attachments sent. Idempotent. */
  finish(params: { note?: string } = {}): Promise<DeliveryResult> {
    this.finished ??= this.deliverFinal({ note: params.note });
    return this.finished;
  }

  /** Ends an interrupted reply: what was said so far is finished with an "(interrupted)" note. */
  abandon(): Promise<DeliveryResult> {
    return this.finish({ note: '(interrupted)' });
  }

  /** Stops streaming without finishing (shutdown): shown messages stay open for a replay to adopt. */
  async halt(): Promise<void> {
    this.stopped = true;
    await this.loopDone;
  }

  /** Whether the caller's signal stopped all platform calls. */
  private get aborted(): boolean {
    return this.params.signal?.aborted === true;
  }

  /** Streams updates while there is news; one pacer op per round, so many deltas coalesce into one edit. */
  private async loop(): Promise<void> {
    const { pacer, chatKey, signal, logger } = this.params;
    try {
      while (this.dirty && !this.stopped && !this.aborted) {
        this.dirty = false;
        try {
          if (!this.hasStreamingWork()) continue;
          await pacer.run({ chatKey, op: () => this.streamStep(), calledPlatform: (called) => called, ...(signal ? { signal } : {}) });
        } catch (error) {
          if (!this.aborted) logger?.warn({ err: error }, 'a streaming update failed; the next one will try again');
        }
      }
    } finally {
      this.looping = false;
    }
  }

  /** The uncommitted visible text and what the current message should show of it. */
  private view(params: { upTo?: number } = {}): { rest: string; body: string } {
    const visible = visibleStreamingText({ text: params.upTo === undefined ? this.raw : this.raw.slice(0, params.upTo) });
    if (this.params.safeLength) this.released = Math.max(this.released, this.consumed, this.params.safeLength({ text: visible }));
    const safe = this.params.safeLength ? this.released : visible.length;
    const rest = visible.slice(this.consumed, safe);
    const content = rest.replace(LEADING_BLANK_LINES, '').trimEnd();
    const body = content === '' ? '' : reopenPrefix({ open: this.carry, limit: this.streamLimit }) + content;
    return { rest, body };
  }

  /** Whether a streaming update would change what the platform shows. */
  private hasStreamingWork(): boolean {
    if (this.stopped) return false;
    if (this.unprinted.length > 0) return true;
    const { body } = this.view();
    if (body.length > this.streamLimit) return true;
    const preview = this.preview({ body });
    return preview !== undefined && this.messages.needsCall({ seq: this.committed.length, text: preview });
  }

  /** What the open message shows: the text, the tool activity lines that fit below it, the cursor; undefined when empty. */
  private preview(params: { body: string }): string | undefined {
    return previewText({ body: params.body, lines: this.progressLines, cursor: this.params.cursor, maxLength: this.maxLength });
  }

  /**
   * For an adapter that prints tool activity itself: shows the text streamed before the next unprinted line, then that
   * line (and any added at the same point), so lines and text appear in the order they happened. True when it called the platform.
   */
  private async printStep(): Promise<boolean> {
    const first = this.unprinted[0];
    if (first === undefined) return false;
    const { body } = this.view({ upTo: first.at });
    const called = body !== '' && body.length <= this.streamLimit && (await this.messages.put({ seq: this.committed.length, text: body + this.params.cursor, state: 'open' }));
    const { adapter } = this.params;
    while (this.unprinted[0] !== undefined && this.unprinted[0].at <= first.at) {
      const { line } = this.unprinted.shift() ?? first;
      try {
        adapter.showToolProgress?.({ chat: this.params.chat, line });
      } catch (error) {
        this.params.logger?.warn({ err: error }, 'could not show a tool activity line');
      }
    }
    this.dirty = true;
    return called;
  }

  /** Prints the tool activity lines still waiting when the reply finishes, before its final text. */
  private async flushPrinted(): Promise<void> {
    const { pacer, chatKey, signal, logger } = this.params;
    while (this.unprinted.length > 0 && !this.aborted) {
      try {
        await pacer.run({ chatKey, op: () => this.printStep(), calledPlatform: (called) => called, ...(signal ? { signal } : {}) });
      } catch (error) {
        logger?.warn({ err: error }, 'could not show the last tool activity lines');
        return;
      }
    }
  }

  /** One streaming update with the latest text: finalize a full message, or show the text with the cursor. */
  private async streamStep(): Promise<boolean> {
    if (this.stopped) return false;
    if (this.unprinted.length > 0) return this.printStep();
    const { rest, body } = this.view();
    const seq = this.committed.length;
    if (body.length <= this.streamLimit) {
      const preview = this.preview({ body });
      return preview !== undefined && (await this.messages.put({ seq, text: preview, state: 'open' }));
    }
    // Cut below the streaming limit, which the text exceeds, so the cut is a real boundary and not the
    // place where the stream happens to be (possibly mid-word).
    const taken = takeChunk({ text: rest, limit: this.streamLimit, openFence: this.carry });
    const called = taken.text !== '' && (await this.messages.put({ seq, text: taken.text, state: 'final' }));
    if (taken.text !== '') this.committed.push(taken.text);
    this.consumed += taken.consumed;
    this.carry = taken.openFence;
    this.dirty = true;
    return called;
  }

  /** Stops streaming, then delivers the finished text, leftovers and attachments. */
  private async deliverFinal(params: { note: string | undefined }): Promise<DeliveryResult> {
    this.stopped = true;
    await this.loopDone;
    await this.flushPrinted();
    const { adapter } = this.params;
    const errors: string[] = [];
    const extracted = extractMedia({ text: this.raw });
    const { text } = extracted;
    const media = [...extracted.media, ...this.attached.filter((item) => !extracted.media.some((named) => named.path === item.path))];
    const checked = await checkAttachments({
      media,
      canSend: adapter.capabilities.media,
      alreadySent: (path) => this.messages.hasAttachment({ path }),
      ...(this.params.mediaPolicy ? { refuse: this.params.mediaPolicy } : {}),
    });
    const staged = await this.stage({ sendable: checked.sendable });
    try {
      return await this.deliverChecked({ text, media, note: params.note, sendable: staged.sendable, notes: [...checked.notes, ...staged.notes], errors });
    } finally {
      // A platform that fetches the files later (SMS links) finds the copies in the cache until it is pruned.
      if (adapter.readsAttachmentsLater !== true) await Promise.all(staged.releases.map((release) => release().catch(() => undefined)));
    }
  }

  /** The files to send as the platform uploads them (staged copies when a stager is given) and notes on the ones refused. */
  private async stage(params: { sendable: readonly MediaRef[] }): Promise<{ sendable: OutboundAttachment[]; notes: string[]; releases: (() => Promise<void>)[] }> {
    const stager = this.params.stageMedia;
    if (stager === undefined) return { sendable: [...params.sendable], notes: [], releases: [] };
    const sendable: OutboundAttachment[] = [];
    const notes: string[] = [];
    const releases: (() => Promise<void>)[] = [];
    for (const item of params.sendable) {
      const staged = await stager({ path: item.path });
      if (staged.kind === 'refused') {
        notes.push(`⚠️ Could not attach ${item.path}: ${staged.reason}`);
        continue;
      }
      releases.push(staged.release);
      sendable.push({ path: staged.path, kind: item.kind, sourcePath: item.path });
    }
    return { sendable, notes, releases };
  }

  /** Delivers the final text and the checked files. */
  private async deliverChecked(params: {
    text: string;
    media: readonly MediaRef[];
    note: string | undefined;
    sendable: readonly OutboundAttachment[];
    notes: readonly string[];
    errors: string[];
  }): Promise<DeliveryResult> {
    const { adapter, signal, logger } = this.params;
    const { text, media, errors } = params;
    let textComplete = true;
    const source = this.composeFinal({ text, notes: params.notes, note: params.note });
    const rest = splitMessage({ text: source.slice(this.consumed), limit: this.maxLength, openFence: this.carry });
    const chunks = [...this.committed, ...rest];

    // Without edits the reply is sent once, finished: its files go with its last message (one email with
    // attachments, one MMS) rather than as messages of their own.
    const lastSeq = chunks.length - 1;
    const bundle = !adapter.capabilities.edit && lastSeq >= 0 && this.messages.get({ seq: lastSeq }) === undefined ? params.sendable : [];
    for (const [seq, chunk] of chunks.entries()) {
      if (this.aborted) break;
      if (!adapter.capabilities.edit && this.messages.get({ seq }) !== undefined) {
        logger?.info({ seq }, 'an earlier attempt already sent this part and the platform cannot edit it');
        continue;
      }
      const attachments = seq === lastSeq ? bundle : [];
      if (!(await this.finalPut({ seq, text: chunk, errors, attachments }))) textComplete = false;
    }
    if (adapter.capabilities.edit) {
      if (!this.aborted && this.messages.hasPending({ fromSeq: chunks.length })) {
        await this.params.pacer
          .run({ chatKey: this.params.chatKey, op: () => this.messages.retirePending({ fromSeq: chunks.length }), ...(signal ? { signal } : {}) })
          .catch((error: unknown) => logger?.warn({ err: error }, 'could not look for an interrupted send this reply no longer needs'));
      }
      for (const seq of this.messages.seqs()) {
        if (seq >= chunks.length && !this.aborted) await this.finalPut({ seq, text: '…', errors });
      }
    }
    for (const item of params.sendable) {
      if (this.aborted) break;
      const named = item.sourcePath ?? item.path;
      if (this.messages.hasAttachment({ path: named })) continue; // went with the last message
      try {
        await this.params.pacer.run({
          chatKey: this.params.chatKey,
          op: () => this.messages.sendAttachment({ attachment: item }),
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        errors.push(`Could not send the file ${named}: ${errorMessage(error)}`);
      }
    }
    if (this.aborted) errors.push('Delivery was stopped before the reply was complete; a restart finishes it.');
    const attachmentsSent = media.filter((item) => this.messages.hasAttachment({ path: item.path })).length;
    logger?.debug({ chunks: chunks.length, attachmentsSent, errors: errors.length, durationMs: this.params.clock.now() - this.startedAt }, 'reply delivered');
    return { messageIds: this.messages.ids(), finalText: source.trim(), attachmentsSent, errors, textComplete: textComplete && !this.aborted };
  }

  /** The final reply: the text, then attachment notes, then the caller's note, keeping the committed prefix intact. */
  private composeFinal(params: { text: string; notes: readonly string[]; note: string | undefined }): string {
    const trimmed = params.text.trimEnd();
    const body = trimmed.length >= this.consumed ? trimmed : params.text;
    const tail = [params.notes.join('\n'), params.note ?? ''].filter((part) => part.trim() !== '');
    if (tail.length === 0) return body;
    return body.trim() === '' ? body + tail.join('\n\n') : [body, ...tail].join('\n\n');
  }

  /** Makes the message at `seq` show its final text; retries failures other than rate limits, then reports them (false). */
  private async finalPut(params: { seq: number; text: string; errors: string[]; attachments?: readonly OutboundAttachment[] }): Promise<boolean> {
    const { seq, text } = params;
    const attachments = params.attachments ?? [];
    if (!this.messages.needsCall({ seq, text })) {
      await this.messages.put({ seq, text, state: 'final' });
      return true;
    }
    const { pacer, chatKey, signal, logger } = this.params;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await pacer.run({
          chatKey,
          op: () => this.messages.put({ seq, text, state: 'final', attachments }),
          calledPlatform: (called) => called,
          ...(signal ? { signal } : {}),
        });
        return true;
      } catch (error) {
        if (attempt >= FINAL_ATTEMPTS || this.aborted) {
          params.errors.push(`Could not deliver part ${seq + 1} of the reply: ${errorMessage(error)}`);
          return false;
        }
        logger?.warn({ err: error, seq, attempt }, 'final update failed; trying again');
      }
    }
  }
}
