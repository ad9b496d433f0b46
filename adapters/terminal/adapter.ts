import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type {
  AdapterCapabilities,
  AdapterStartParams,
  ChatRef,
  EditRequest,
  OutboundMessage,
  PlatformAdapter,
} from '../../src/core/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { mediaLine } from './media-line.js';
import { terminalSafe } from './safe-text.js';
import { terminalCapabilities, typedMessage } from './typed-message.js';
import { errorMessage } from '../../src/util/error-text.js';

/** Shown where the user types. */
const prompt = '› ';

/** How many printed messages the adapter remembers for growing them in place. */
const maxRemembered = 64;

/** ANSI dim on and off (normal intensity), around tool activity lines on a terminal. */
const dimOn = '\u001b[2m';
const dimOff = '\u001b[22m';

export { terminalChatId } from './typed-message.js';

/**
 * `hermes chat`: the terminal as a platform. Lines typed become messages; a streamed reply is printed as
 * it grows (a terminal cannot edit, so only the new tail of each edit is written).
 */
export class TerminalAdapter implements PlatformAdapter {
  readonly name = 'terminal';
  /** `typing` draws nothing here: it only tells the adapter an answer is being written (what SIGINT stops). */
  readonly capabilities: AdapterCapabilities = { ...terminalCapabilities, typing: true };
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly cursor: string;
  private readonly clock: Clock;
  private readonly user: string;
  private readonly onEnd: () => void;
  private readonly printed = new Map<string, string>();
  private nextOut = 1;
  private nextIn = 1;
  private runId: string;
  /** Whether the output is a terminal: tool activity is dimmed there, plain text in a pipe or file. */
  private readonly tty: boolean;
  /** The end of what was written last: a tool activity line starts on a line of its own. */
  private lastWritten = '';
  /** The last thing written was a tool activity line: the answer's next text starts after one blank line, not several. */
  private afterProgress = false;
  /** The input's line reader while it runs. */
  private lines: Interface | undefined;
  /** Sends a line as the user's message, while the adapter runs. */
  private emitLine: ((text: string) => Promise<void>) | undefined;
  /** An answer is being written (between the turn's typing and typingDone). */
  private busy = false;
  /** SIGINT came: lines still arriving are not sent. */
  private interrupted = false;

  /** `dim`: whether tool activity lines are dimmed (default: when the output is a terminal). */
  constructor(params: { input: Readable; output: Writable; cursor: string; clock: Clock; user: string; onEnd: () => void; dim?: boolean }) {
    this.input = params.input;
    this.output = params.output;
    this.cursor = params.cursor;
    this.clock = params.clock;
    this.user = params.user;
    this.onEnd = params.onEnd;
    this.runId = params.clock.now().toString(36);
    this.tty = params.dim ?? ('isTTY' in params.output && params.output.isTTY === true);
  }

  async start(params: AdapterStartParams): Promise<void> {
    const lines = createInterface({ input: this.input, terminal: false });
    this.lines = lines;
    params.report({ state: 'connected' });
    this.write(prompt);
    const pending: Promise<void>[] = [];
    const emitLine = (line: string): Promise<void> => {
      const sent = params
        .emit(typedMessage({ runId: this.runId, n: this.nextIn++, user: this.user, text: line, now: this.clock.now() }))
        .catch((error: unknown) => {
          this.write(`\n[not sent: ${errorMessage(error)}]\n`);
        });
      pending.push(sent);
      return sent;
    };
    this.emitLine = emitLine;
    lines.on('line', (line) => {
      if (line.trim() === '' || this.interrupted) return;
      void emitLine(line);
    });
    const closed = new Promise<void>((resolve) => lines.once('close', () => resolve()));
    const aborted = whenAborted({ signal: params.signal });
    await Promise.race([closed, aborted]);
    await Promise.all(pending);
    lines.close();
    this.lines = undefined;
    this.emitLine = undefined;
    if (!params.signal.aborted) {
      this.onEnd();
      await aborted;
    }
  }

  /**
   * SIGINT (Ctrl-C in the shell that pipes into the chat): no more input is read, the answer being written is stopped
   * (as /stop does: lines waiting behind it are dropped), then the input ends as at end of file. Resolves once the
   * /stop was taken.
   */
  async interrupt(): Promise<void> {
    if (this.interrupted) return;
    this.interrupted = true;
    if (this.busy) await this.emitLine?.('/stop');
    this.lines?.close();
  }

  async typing(_params: { chat: ChatRef }): Promise<void> {
    this.busy = true;
  }

  async typingDone(_params: { chat: ChatRef }): Promise<void> {
    this.busy = false;
  }

  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const id = `t${this.nextOut++}`;
    const text = this.strip(message.text);
    const files = (message.attachments ?? []).map((attachment) => mediaLine({ attachment }));
    const body = [text, ...files].filter((x) => x !== '').join('\n');
    this.writeText(body);
    this.remember({ id, text });
    this.promptIfComplete({ text: message.text });
    return { messageId: id };
  }

  async edit(request: EditRequest): Promise<void> {
    const before = this.printed.get(request.messageId) ?? '';
    const text = this.strip(request.text);
    if (text.startsWith(before)) this.writeText(text.slice(before.length));
    else this.writeText(`\n${text}`);
    this.remember({ id: request.messageId, text });
    this.promptIfComplete({ text: request.text });
  }

  /**
   * Prints a tool activity line on its own line, dimmed on a terminal. In a pipe or file it is kept, undimmed: a
   * transcript still shows what the agent did, without escape codes (`display.tool_progress: off` leaves them out).
   */
  showToolProgress(params: { line: string }): void {
    const fresh = this.lastWritten === '' || this.lastWritten.endsWith('\n') || this.lastWritten.endsWith(prompt);
    const safe = terminalSafe({ text: params.line });
    const line = this.tty ? `${dimOn}${safe}${dimOff}` : safe;
    this.write(`${fresh ? '' : '\n'}${line}\n`);
    this.afterProgress = true;
  }

  /** Writes reply text; right after tool activity lines its leading line breaks become one blank line. */
  private writeText(text: string): void {
    const shown = this.afterProgress ? text.replace(/^(?:\r?\n)+/, '\n') : text;
    this.write(shown);
  }

  /** Writes to the output, remembering how it ended. */
  private write(text: string): void {
    if (text === '') return;
    this.output.write(text);
    this.lastWritten = text.slice(-prompt.length);
    this.afterProgress = false;
  }

  /** A message without the streaming cursor is complete: end the line and show the prompt again. */
  private promptIfComplete(params: { text: string }): void {
    if (this.cursor === '' || !params.text.endsWith(this.cursor)) this.write(`\n\n${prompt}`);
  }

  /** Keeps what each recent message shows; old ones are forgotten so a long chat stays small. */
  private remember(params: { id: string; text: string }): void {
    this.printed.delete(params.id);
    this.printed.set(params.id, params.text);
    if (this.printed.size > maxRemembered) {
      const oldest = this.printed.keys().next().value;
      if (oldest !== undefined) this.printed.delete(oldest);
    }
  }

  /** The text without the streaming cursor, fit for a terminal (no control characters). */
  private strip(text: string): string {
    return terminalSafe({ text: this.cursor !== '' && text.endsWith(this.cursor) ? text.slice(0, -this.cursor.length) : text });
  }
}
