import { emitKeypressEvents } from 'node:readline';
import type { Readable } from 'node:stream';
import type {
  AdapterCapabilities,
  AdapterStartParams,
  ChatRef,
  EditRequest,
  OutboundMessage,
  PlatformAdapter,
} from '../../src/core/adapter.js';
import { STOPPED_REPLY } from '../../src/core/stop-reply.js';
import type { Clock } from '../../src/core/clock.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { terminalCapabilities, typedMessage } from './typed-message.js';
import { LineEditor, type EditorAction, type KeyPress } from './line-editor.js';
import { finishedLength, renderMarkdown } from './markdown.js';
import { mediaLine } from './media-line.js';
import { terminalSafe } from './safe-text.js';
import { TtyScreen, type ScreenOutput } from './screen.js';
import { errorMessage } from '../../src/util/error-text.js';

/** Shown where the user types. */
const prompt = '› ';
/** The terminal's bracketed paste mode on and off: pastes then arrive between paste-start and paste-end keys. */
const pasteOn = '\u001b[?2004h';
const pasteOff = '\u001b[?2004l';
/** ANSI dim on and off, around tool activity lines and the status line. */
const dimOn = '\u001b[2m';
const dimOff = '\u001b[22m';
/** The spinner's frames and their pace. */
const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const frameMs = 80;
/** How many streamed messages are remembered for growing them in place. */
const maxRemembered = 64;
/** The hint after a first Ctrl-C on an idle, empty prompt. */
const leaveHint = 'Press Ctrl-C again to leave (or Ctrl-D).';

/** A terminal input: a Readable that can be put into raw mode (a TTY's stdin). */
export type KeyInput = Readable & { setRawMode?: (mode: boolean) => unknown };

/** What one streamed message has shown: its text so far, how much of it is rendered above, how many blocks. */
interface Shown {
  raw: string;
  committed: number;
  blocks: number;
}

/**
 * `hermes chat` on a terminal: keys are read in raw mode (node:readline's keypress parser, bracketed paste on),
 * edited in a line of their own below the output, and sent on Enter. Ctrl-C stops a running answer (the runner's
 * /stop), and on an idle empty line asks once, then leaves; Ctrl-D on an empty line leaves; Ctrl-L clears the screen.
 * Replies are rendered as terminal Markdown block by block as they finish; a spinner shows until the first text.
 */
export class TtyTerminalAdapter implements PlatformAdapter {
  readonly name = 'terminal';
  readonly capabilities: AdapterCapabilities = { ...terminalCapabilities, typing: true };
  private readonly input: KeyInput;
  private readonly output: ScreenOutput;
  private readonly cursor: string;
  private readonly clock: Clock;
  private readonly user: string;
  private readonly onEnd: () => void;
  private readonly render: (text: string) => string;
  private readonly screen: TtyScreen;
  private readonly editor = new LineEditor();
  private readonly shown = new Map<string, Shown>();
  private nextOut = 1;
  private nextIn = 1;
  private readonly runId: string;
  /** A turn is running (between the runner's typing and typingDone). */
  private busy = false;
  /** A message was sent and nothing of its answer is shown yet: the spinner turns. */
  private waiting = false;
  /** The message whose unfinished block the live region shows. */
  private liveId: string | undefined;
  /** A first Ctrl-C on an idle, empty line was pressed: the next one leaves. */
  private armed = false;
  private frame = 0;
  private finish: () => void = () => undefined;
  /** Sends text as the user's message; returns its message id. */
  private emit: ((text: string) => string) | undefined;
  /** The running answer showed text: a stopped one ends with "(stopped)" in place. */
  private answerShown = false;
  /** The id of a /stop sent by a key whose answer says "(stopped)" itself: its plain "Stopped." reply is not shown twice. */
  private quietStop: string | undefined;

  /** `render`: Markdown to terminal text (default: marked-terminal). */
  constructor(params: { input: KeyInput; output: ScreenOutput; cursor: string; clock: Clock; user: string; onEnd: () => void; render?: (text: string) => string }) {
    this.input = params.input;
    this.output = params.output;
    this.cursor = params.cursor;
    this.clock = params.clock;
    this.user = params.user;
    this.onEnd = params.onEnd;
    this.render = params.render ?? ((text) => renderMarkdown({ text }));
    this.runId = params.clock.now().toString(36);
    this.screen = new TtyScreen({ output: params.output, prompt });
  }

  async start(params: AdapterStartParams): Promise<void> {
    const pending: Promise<void>[] = [];
    this.emit = (text: string): string => {
      const event = typedMessage({ runId: this.runId, n: this.nextIn++, user: this.user, text, now: this.clock.now() });
      pending.push(params.emit(event).catch((error: unknown) => this.screen.commit({ text: `[not sent: ${errorMessage(error)}]` })));
      return event.messageId;
    };
    const ended = new Promise<void>((resolve) => {
      this.finish = resolve;
    });
    const onKey = (str: string | undefined, key: KeyPress | undefined): void => this.onAction(this.editor.key({ str, key }));
    const restore = (): void => {
      this.output.write(pasteOff);
    };
    emitKeypressEvents(this.input);
    this.input.setRawMode?.(true);
    this.input.on('keypress', onKey);
    this.input.once('end', () => this.finish());
    this.input.resume();
    process.once('exit', restore);
    this.output.write(pasteOn);
    params.report({ state: 'connected' });
    this.showInput();
    const spin = new AbortController();
    void this.spin({ signal: spin.signal });
    const aborted = whenAborted({ signal: params.signal });
    try {
      await Promise.race([ended, aborted]);
    } finally {
      spin.abort();
      this.input.off('keypress', onKey);
      this.input.setRawMode?.(false);
      this.input.pause();
      this.screen.close();
      restore();
      process.off('exit', restore);
    }
    await Promise.all(pending);
    this.emit = undefined;
    if (!params.signal.aborted) {
      this.onEnd();
      await aborted;
    }
  }

  /**
   * Stops the running answer, if any (as /stop does); true when one was running. An answer that showed text ends with
   * "(stopped)" in place, so the /stop's plain "Stopped." is not shown as well (one sign, not two).
   */
  stopAnswer(): boolean {
    if (!this.busy && !this.waiting) return false;
    this.waiting = false;
    this.flushLive();
    const id = this.emit?.('/stop');
    this.quietStop = this.busy && this.answerShown ? id : undefined;
    this.showStatus();
    return true;
  }

  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const id = `t${this.nextOut++}`;
    if (this.quietStop !== undefined && message.replyToId === this.quietStop && message.text === STOPPED_REPLY) {
      this.quietStop = undefined;
      return { messageId: id };
    }
    this.update({ id, text: message.text });
    for (const attachment of message.attachments ?? []) this.screen.commit({ text: mediaLine({ attachment }) });
    return { messageId: id };
  }

  async edit(request: EditRequest): Promise<void> {
    this.update({ id: request.messageId, text: request.text });
  }

  async typing(_params: { chat: ChatRef }): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.answerShown = false;
    if (this.liveId === undefined) this.waiting = true;
    this.showStatus();
  }

  async typingDone(_params: { chat: ChatRef }): Promise<void> {
    this.busy = false;
    this.waiting = false;
    this.showStatus();
  }

  /** A tool activity line, dimmed, above the live region; the answer's text so far is shown first, to keep the order. */
  showToolProgress(params: { chat: ChatRef; line: string }): void {
    this.flushLive();
    this.screen.commit({ text: `${dimOn}${terminalSafe({ text: params.line })}${dimOff}` });
    if (this.busy) this.waiting = true;
    this.showStatus();
  }

  private onAction(action: EditorAction): void {
    if (action.kind !== 'interrupt' && action.kind !== 'none' && this.armed) {
      this.armed = false;
      this.showStatus();
    }
    switch (action.kind) {
      case 'submit':
        this.submit({ text: action.text });
        return;
      case 'interrupt':
        this.interrupt();
        return;
      case 'eof':
        this.stopAnswer();
        this.finish();
        return;
      case 'clear-screen':
        this.screen.clearScreen();
        return;
      case 'changed':
        this.showInput();
        return;
      case 'none':
        return;
    }
  }

  private submit(params: { text: string }): void {
    if (params.text.trim() === '') {
      this.showInput();
      return;
    }
    this.screen.setInput({ input: null });
    this.screen.commit({ text: `${prompt}${params.text.replace(/\n/g, '\n  ')}\n` });
    this.waiting = true;
    this.showStatus();
    this.showInput();
    this.emit?.(params.text);
  }

  private interrupt(): void {
    if (this.editor.text !== '') {
      this.editor.clear();
      this.showInput();
      return;
    }
    if (this.stopAnswer()) return;
    if (this.armed) {
      this.finish();
      return;
    }
    this.armed = true;
    this.showStatus();
  }

  private showInput(): void {
    this.screen.setInput({ input: { text: this.editor.text, cursor: this.editor.cursor } });
  }

  private showStatus(): void {
    let status = '';
    if (this.armed) status = `${dimOn}${leaveHint}${dimOff}`;
    else if (this.waiting) status = `${dimOn}${frames[this.frame % frames.length] ?? ''} thinking…${dimOff}`;
    this.screen.setStatus({ text: status });
  }

  private async spin(params: { signal: AbortSignal }): Promise<void> {
    while (!params.signal.aborted) {
      try {
        await this.clock.sleep(frameMs, params.signal);
      } catch {
        return;
      }
      if (!this.waiting || this.armed) continue;
      this.frame++;
      this.showStatus();
    }
  }

  /** Shows a message's new text: finished blocks rendered above, the unfinished one raw in the live region. */
  private update(params: { id: string; text: string }): void {
    const complete = this.cursor === '' || !params.text.endsWith(this.cursor);
    // The model's text never reaches the terminal with its control characters (escape sequences).
    const text = terminalSafe({ text: complete ? params.text : params.text.slice(0, -this.cursor.length) });
    let shown = this.shown.get(params.id) ?? { raw: '', committed: 0, blocks: 0 };
    // Rewritten from the start (a retried stream): what is rendered above stays, the rest is shown anew.
    if (!text.startsWith(shown.raw.slice(0, shown.committed))) shown = { raw: '', committed: 0, blocks: shown.blocks };
    shown.raw = text;
    this.remember({ id: params.id, shown });
    const pending = text.slice(shown.committed);
    if (pending.trim() !== '' && this.busy) this.answerShown = true;
    if (pending.trim() !== '' && this.waiting) {
      this.waiting = false;
      this.showStatus();
    }
    const finished = complete ? pending.length : finishedLength({ text: pending });
    const tail = complete ? '' : pending.slice(finished).replace(/^\n+/, '');
    if (complete && this.liveId === params.id) this.liveId = undefined;
    if (!complete) this.liveId = params.id;
    // The blocks that finished go above, and the live region shows what is left, in one redraw.
    const committed = this.commitBlock({ shown, text: pending.slice(0, finished), tail });
    shown.committed += finished;
    if (!committed) this.screen.setTail({ text: tail });
    if (complete && shown.blocks > 0) this.screen.commit({ text: '' });
    this.showStatus();
  }

  /** Renders the live message's text so far above (before a tool line, or when Ctrl-C stops it), so lines keep their order. */
  private flushLive(): void {
    const id = this.liveId;
    if (id === undefined) return;
    const shown = this.shown.get(id);
    this.liveId = undefined;
    if (shown === undefined || !this.commitBlock({ shown, text: shown.raw.slice(shown.committed), tail: '' })) this.screen.setTail({ text: '' });
    if (shown !== undefined) shown.committed = shown.raw.length;
  }

  /** Renders finished Markdown above the live region (whose unfinished part becomes `tail`); false when there was nothing to show. */
  private commitBlock(params: { shown: Shown; text: string; tail: string }): boolean {
    if (params.text.trim() === '') return false;
    let rendered: string;
    try {
      rendered = this.render(params.text);
    } catch {
      rendered = params.text.trim();
    }
    this.screen.commit({ text: `${params.shown.blocks > 0 ? '\n' : ''}${rendered}`, tail: params.tail });
    params.shown.blocks++;
    return true;
  }

  /** Keeps what each recent message shows; old ones are forgotten so a long chat stays small. */
  private remember(params: { id: string; shown: Shown }): void {
    this.shown.delete(params.id);
    this.shown.set(params.id, params.shown);
    if (this.shown.size > maxRemembered) {
      const oldest = this.shown.keys().next().value;
      if (oldest !== undefined) this.shown.delete(oldest);
    }
  }
}
