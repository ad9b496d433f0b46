/** A key as node:readline's emitKeypressEvents reports it (its parser reads the terminal's escape sequences). */
export interface KeyPress {
  readonly sequence?: string | undefined;
  readonly name?: string | undefined;
  readonly ctrl?: boolean | undefined;
  readonly meta?: boolean | undefined;
  readonly shift?: boolean | undefined;
}

/** What a key asks of the chat. */
export type EditorAction =
  | { readonly kind: 'submit'; readonly text: string }
  | { readonly kind: 'interrupt' }
  | { readonly kind: 'eof' }
  | { readonly kind: 'clear-screen' }
  | { readonly kind: 'changed' }
  | { readonly kind: 'none' };

/** Most lines the history keeps. */
const maxHistory = 200;

/**
 * The input line of `hermes chat`: text and cursor, edited by keys (readline-like: arrows, Home/End, Ctrl-A/E/U/K/W,
 * history on Up/Down). Inside a bracketed paste (the terminal's paste-start … paste-end keys) Enter is a line break,
 * so a pasted text of several lines becomes one message, sent on the next Enter.
 */
export class LineEditor {
  private value = '';
  private at = 0;
  private pasting = false;
  private readonly history: string[] = [];
  /** Position while walking the history (history.length: the line being written). */
  private walk = 0;
  /** The line being written, kept while Up/Down show older ones. */
  private draft = '';

  /** The text in the input line (may hold line breaks from a paste). */
  get text(): string {
    return this.value;
  }

  /** The cursor's index in `text`. */
  get cursor(): number {
    return this.at;
  }

  /** Empties the line (Ctrl-C on a line with text in it). */
  clear(): void {
    this.value = '';
    this.at = 0;
  }

  /** Applies one key. `str` is the text it typed, if any. */
  key(params: { str: string | undefined; key: KeyPress | undefined }): EditorAction {
    const key = params.key ?? {};
    const str = params.str;
    if (key.name === 'paste-start') {
      this.pasting = true;
      return { kind: 'none' };
    }
    if (key.name === 'paste-end') {
      this.pasting = false;
      return { kind: 'changed' };
    }
    if (this.pasting) {
      if (key.name === 'return' || key.name === 'enter') return this.insert('\n');
      if (str !== undefined && str !== '') return this.insert(str.replace(/\r\n?/g, '\n'));
      return { kind: 'none' };
    }
    if (key.ctrl) return this.control(key.name);
    if (key.meta) return this.meta(key.name);
    switch (key.name) {
      case 'return':
      case 'enter':
        return this.submit();
      case 'backspace':
        return this.deleteBack(1);
      case 'delete':
        return this.deleteForward();
      case 'left':
        return this.move(this.at - 1);
      case 'right':
        return this.move(this.at + 1);
      case 'home':
        return this.move(0);
      case 'end':
        return this.move(this.value.length);
      case 'up':
        return this.recall(-1);
      case 'down':
        return this.recall(1);
      case 'tab':
        return this.insert('  ');
      default:
        break;
    }
    // eslint-disable-next-line no-control-regex -- a key sequence with a control character is not text to insert
    if (str === undefined || str === '' || /[\u0000-\u001f\u007f]/.test(str)) return { kind: 'none' };
    return this.insert(str);
  }

  private control(name: string | undefined): EditorAction {
    switch (name) {
      case 'c':
        return { kind: 'interrupt' };
      case 'd':
        return this.value === '' ? { kind: 'eof' } : this.deleteForward();
      case 'l':
        return { kind: 'clear-screen' };
      case 'a':
        return this.move(0);
      case 'e':
        return this.move(this.value.length);
      case 'b':
        return this.move(this.at - 1);
      case 'f':
        return this.move(this.at + 1);
      case 'h':
        return this.deleteBack(1);
      case 'u':
        return this.deleteBack(this.at);
      case 'k':
        this.value = this.value.slice(0, this.at);
        return { kind: 'changed' };
      case 'w':
        return this.deleteBack(this.at - wordStart({ text: this.value, from: this.at }));
      case 'p':
        return this.recall(-1);
      case 'n':
        return this.recall(1);
      case 'j':
        return this.submit();
      default:
        return { kind: 'none' };
    }
  }

  private meta(name: string | undefined): EditorAction {
    if (name === 'b') return this.move(wordStart({ text: this.value, from: this.at }));
    if (name === 'backspace') return this.deleteBack(this.at - wordStart({ text: this.value, from: this.at }));
    return { kind: 'none' };
  }

  private submit(): EditorAction {
    const text = this.value;
    this.clear();
    if (text.trim() !== '' && this.history[this.history.length - 1] !== text) {
      this.history.push(text);
      if (this.history.length > maxHistory) this.history.shift();
    }
    this.walk = this.history.length;
    this.draft = '';
    return { kind: 'submit', text };
  }

  private insert(text: string): EditorAction {
    this.value = this.value.slice(0, this.at) + text + this.value.slice(this.at);
    this.at += text.length;
    return { kind: 'changed' };
  }

  private deleteBack(count: number): EditorAction {
    if (count <= 0 || this.at === 0) return { kind: 'none' };
    const from = Math.max(0, this.at - count);
    this.value = this.value.slice(0, from) + this.value.slice(this.at);
    this.at = from;
    return { kind: 'changed' };
  }

  private deleteForward(): EditorAction {
    if (this.at >= this.value.length) return { kind: 'none' };
    this.value = this.value.slice(0, this.at) + this.value.slice(this.at + 1);
    return { kind: 'changed' };
  }

  private move(to: number): EditorAction {
    const next = Math.min(this.value.length, Math.max(0, to));
    if (next === this.at) return { kind: 'none' };
    this.at = next;
    return { kind: 'changed' };
  }

  private recall(step: number): EditorAction {
    const next = this.walk + step;
    if (next < 0 || next > this.history.length) return { kind: 'none' };
    if (this.walk === this.history.length) this.draft = this.value;
    this.walk = next;
    this.value = next === this.history.length ? this.draft : this.history[next] ?? '';
    this.at = this.value.length;
    return { kind: 'changed' };
  }
}

/** Where the word before `from` starts (spaces before it skipped). */
function wordStart(params: { text: string; from: number }): number {
  let i = params.from;
  while (i > 0 && /\s/.test(params.text[i - 1] ?? '')) i--;
  while (i > 0 && !/\s/.test(params.text[i - 1] ?? '')) i--;
  return i;
}
