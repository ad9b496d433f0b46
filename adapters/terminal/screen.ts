import type { Writable } from 'node:stream';
import { displayWidth, lastRows, rowsOf } from './width.js';

/** Control sequences the screen writes (output only: input keys are parsed by node:readline). */
const csi = {
  up: (n: number): string => (n > 0 ? `\u001b[${n}A` : ''),
  column: (n: number): string => `\u001b[${n + 1}G`,
  clearDown: '\u001b[0J',
  home: '\u001b[H',
  clearAll: '\u001b[2J\u001b[3J',
};

/** A terminal output: a Writable that may know its size (a TTY's `columns` and `rows`). */
export type ScreenOutput = Writable & { readonly columns?: number; readonly rows?: number };

/**
 * The terminal of an interactive `hermes chat`: finished output is written above, and a live region stays at the
 * bottom — the answer's unfinished block, a status line (the spinner, a hint) and the input line — erased and redrawn
 * around every write, so what is typed never mixes into the answer and finished lines never change.
 */
export class TtyScreen {
  private readonly output: ScreenOutput;
  private readonly prompt: string;
  private tail = '';
  private status = '';
  private input: { text: string; cursor: number } | null = null;
  /** Rows of the drawn region above the cursor (what the next erase moves up). */
  private rowsAbove = 0;
  private drawn = false;

  constructor(params: { output: ScreenOutput; prompt: string }) {
    this.output = params.output;
    this.prompt = params.prompt;
  }

  /** Writes finished text above the live region (a line break is added when it lacks one); `tail` replaces the unfinished part in the same redraw. */
  commit(params: { text: string; tail?: string }): void {
    const text = params.text.endsWith('\n') ? params.text : `${params.text}\n`;
    const erased = this.erase();
    if (params.tail !== undefined) this.tail = params.tail;
    this.output.write(`${erased}${text.replace(/\r?\n/g, '\r\n')}${this.draw()}`);
  }

  /** Sets the unfinished part of the answer shown in the live region ('' for none). */
  setTail(params: { text: string }): void {
    this.tail = params.text;
    this.redraw();
  }

  /** Sets the status line ('' for none). */
  setStatus(params: { text: string }): void {
    if (this.status === params.text) return;
    this.status = params.text;
    this.redraw();
  }

  /** Shows the input line with this text and cursor; null hides it. */
  setInput(params: { input: { text: string; cursor: number } | null }): void {
    this.input = params.input;
    this.redraw();
  }

  /** Clears the whole screen (Ctrl-L) and draws the live region at the top. */
  clearScreen(): void {
    this.rowsAbove = 0;
    this.drawn = false;
    this.output.write(`${csi.home}${csi.clearAll}${csi.home}${this.draw()}`);
  }

  /** Erases the live region for good (the chat ends); what was committed stays. */
  close(): void {
    this.tail = '';
    this.status = '';
    this.input = null;
    this.output.write(this.erase());
  }

  private redraw(): void {
    this.output.write(`${this.erase()}${this.draw()}`);
  }

  private columns(): number {
    const columns = this.output.columns;
    return typeof columns === 'number' && columns > 0 ? columns : 80;
  }

  private rows(): number {
    const rows = this.output.rows;
    return typeof rows === 'number' && rows > 0 ? rows : 24;
  }

  /** Moves to the region's first row and clears from there down. */
  private erase(): string {
    if (!this.drawn) return '';
    const out = `${csi.up(this.rowsAbove)}\r${csi.clearDown}`;
    this.rowsAbove = 0;
    this.drawn = false;
    return out;
  }

  /** The region's text, leaving the cursor at the input's cursor. */
  private draw(): string {
    const columns = this.columns();
    const input = this.input;
    const shown = (text: string): string => text.replace(/\n/g, '⏎');
    const inputRows = input === null ? 0 : Math.floor(displayWidth({ text: this.prompt + shown(input.text) }) / columns) + 1;
    const statusRows = this.status === '' ? 0 : rowsOf({ text: this.status, columns });
    // The region must fit on the screen (an erase cannot move above its top): a tall unfinished block shows its last
    // rows, one row left above for context; the whole block is written above once it is finished.
    const tail = this.tail === '' ? [] : this.tail.replace(/\n+$/, '').split('\n');
    const lines = lastRows({ lines: tail, rows: this.rows() - 1 - inputRows - statusRows, columns });
    if (this.status !== '') lines.push(this.status);
    if (input === null && lines.length === 0) return '';
    let out = '';
    let rows = 0;
    for (const [i, line] of lines.entries()) {
      out += line + (i < lines.length - 1 || input !== null ? '\r\n' : '');
      rows += rowsOf({ text: line, columns });
    }
    if (input === null) {
      this.rowsAbove = rows - 1;
      this.drawn = true;
      return out;
    }
    const before = displayWidth({ text: this.prompt + shown(input.text.slice(0, input.cursor)) });
    const whole = displayWidth({ text: this.prompt + shown(input.text) });
    out += this.prompt + shown(input.text);
    // A line that exactly fills its last row leaves the cursor waiting to wrap: a space moves it onto a row of its own.
    if (whole > 0 && whole % columns === 0) out += ' \r';
    const lastRow = Math.floor(whole / columns);
    const cursorRow = Math.floor(before / columns);
    out += `\r${csi.up(lastRow - cursorRow)}${csi.column(before % columns)}`;
    this.rowsAbove = rows + cursorRow;
    this.drawn = true;
    return out;
  }
}
