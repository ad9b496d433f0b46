import type { ApiErrorBody } from './wire.js';

/** How a request's answer ended: the whole final text, or an HTTP error to answer instead. */
export type ReplyEnd =
  | { readonly kind: 'done'; readonly text: string }
  | { readonly kind: 'failed'; readonly status: number; readonly body: ApiErrorBody; readonly retryAfterSeconds?: number };

/**
 * The answer to one request, as the gateway delivers it: the messages sent in reply to the request's inbound message
 * (normally one, sent once and then edited as the text grows; `update` gets each send and edit), until the gateway says
 * the turn has ended (`finish`). Streaming turns each change into the text appended since the last one: the cursor the
 * gateway shows while a reply streams is cut off, so the text only grows. Should a change ever rewrite text already
 * streamed (SSE cannot take text back), nothing is streamed until the text extends what the client has again, and at
 * the end the part of the final text past the longest common prefix is appended (`diverged` is then set, for a log
 * line). A request that does not stream gets the exact final text either way.
 */
export class PendingReply {
  /** The inbound message id the request was emitted as. */
  readonly messageId: string;
  readonly chatId: string;
  /** Unix seconds: the completion's `created`. */
  readonly created: number;
  /** The texts of the messages sent in reply, by adapter message id, in send order. */
  private readonly parts = new Map<string, string>();
  private readonly cursor: string;
  /** The text computed for the stream so far (a prefix of every later one, unless diverged). */
  private streamed = '';
  private listener: ((delta: string) => void) | undefined;
  private ended: ReplyEnd | undefined;
  private resolveDone: (end: ReplyEnd) => void = () => undefined;
  /** Settles once with how the answer ended. */
  readonly done: Promise<ReplyEnd>;
  /** Set for a command: its one reply message is the whole answer. */
  private closeOnFirstPart = false;
  /** A change rewrote text already streamed. */
  diverged = false;

  constructor(params: { messageId: string; chatId: string; created: number; cursor: string }) {
    this.messageId = params.messageId;
    this.chatId = params.chatId;
    this.created = params.created;
    this.cursor = params.cursor;
    this.done = new Promise<ReplyEnd>((resolve) => (this.resolveDone = resolve));
  }

  /** Whether the answer is complete (or failed). */
  get isEnded(): boolean {
    return this.ended !== undefined;
  }

  /** The adapter message ids of the reply's messages. */
  partIds(): string[] {
    return [...this.parts.keys()];
  }

  /** Whether any message was sent in reply yet. */
  get hasParts(): boolean {
    return this.parts.size > 0;
  }

  /** The reply's text now: its messages' texts (the streaming cursor cut off when `open`), blank-line separated. */
  text(params: { open: boolean }): string {
    const cut = params.open && this.cursor !== '';
    return [...this.parts.values()].map((text) => (cut && text.endsWith(this.cursor) ? text.slice(0, -this.cursor.length) : text)).join('\n\n');
  }

  /** Streams deltas to `listener` from now on; what was computed before comes first, as one delta. */
  attach(params: { listener: (delta: string) => void }): void {
    this.listener = params.listener;
    if (this.streamed !== '') params.listener(this.streamed);
  }

  /** Stops streaming (the client went away); the answer is still followed to its end. */
  detach(): void {
    this.listener = undefined;
  }

  /** A message of the reply was sent (`partId` new) or edited to `text`. */
  update(params: { partId: string; text: string }): void {
    if (this.ended !== undefined) return;
    this.parts.set(params.partId, params.text);
    if (this.closeOnFirstPart) {
      this.finish();
      return;
    }
    this.grow({ to: this.text({ open: true }) });
  }

  /** The answer is whatever its first reply message says (a command's reply); now, if one came already. */
  closeWithFirstPart(): void {
    if (this.hasParts) this.finish();
    else this.closeOnFirstPart = true;
  }

  /** The turn ended: the final text is what the reply's messages say now. */
  finish(): void {
    if (this.ended !== undefined) return;
    const final = this.text({ open: false });
    if (final.startsWith(this.streamed)) this.emit(final.slice(this.streamed.length));
    else {
      this.diverged = true;
      this.emit(final.slice(commonPrefixLength({ a: final, b: this.streamed })));
    }
    this.end({ kind: 'done', text: final });
  }

  /** The answer is `text` (a message steered into another request's turn gets that turn's reply; '' for none). */
  finishWith(params: { text: string }): void {
    if (this.ended !== undefined) return;
    this.parts.clear();
    this.parts.set('whole', params.text);
    this.finish();
  }

  /** The request gets an error instead of an answer (or, mid-stream, an error event). */
  fail(params: { status: number; body: ApiErrorBody; retryAfterSeconds?: number }): void {
    if (this.ended !== undefined) return;
    this.end({ kind: 'failed', ...params });
  }

  private grow(params: { to: string }): void {
    const { to } = params;
    if (to.startsWith(this.streamed)) {
      this.emit(to.slice(this.streamed.length));
      return;
    }
    this.diverged = true;
  }

  private emit(delta: string): void {
    if (delta === '') return;
    this.streamed += delta;
    this.listener?.(delta);
  }

  private end(end: ReplyEnd): void {
    this.ended = end;
    this.listener = undefined;
    this.resolveDone(end);
  }
}

/** Length of the longest common prefix of two strings. */
function commonPrefixLength(params: { a: string; b: string }): number {
  const { a, b } = params;
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}
