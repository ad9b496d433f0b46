import { codeLanguage, escapeAttribute, escapeHtml } from './format-text.js';

/** Tags that wrap other content. `code` and `pre` are written whole, by `code()` and `pre()`. */
export type WrapTag = 'b' | 'i' | 's' | 'a' | 'blockquote';

/** Tags Telegram does not allow inside themselves: a nested one is dropped, its content kept. */
const NO_SELF_NESTING: ReadonlySet<WrapTag> = new Set<WrapTag>(['a', 'blockquote']);

/** One open wrapper. Tags are written lazily, so a wrapper with no visible content leaves nothing behind. */
interface Frame {
  readonly tag: WrapTag;
  readonly href: string | undefined;
  /** False for a wrapper dropped because Telegram forbids the nesting. */
  readonly active: boolean;
  /** Whether its start tag is currently written and not yet closed. */
  opened: boolean;
}

/**
 * Builds Telegram HTML (or plain text when `markup` is false) that is well-formed by construction:
 * every start tag written is closed in reverse order, and entities Telegram cannot nest are split instead:
 * `code` closes the inline wrappers around it, `pre` closes every wrapper (blockquote included), and the
 * wrappers reopen before the next visible text. Line breaks are held back until more content follows, so
 * they never open a wrapper and never sit just before an end tag (trailing ones are dropped). A line that
 * starts a block gets the current indentation (used for list items) before its first character.
 */
export class TelegramWriter {
  readonly #markup: boolean;
  readonly #out: string[] = [];
  readonly #frames: Frame[] = [];
  readonly #indents: string[] = [];
  #lineStart = true;
  /** Line breaks not yet written: they go out before the next content, so end tags come before them. */
  #breaks = '';

  /** `markup: false` writes the same text without tags or escaping (the plain-text fallback). */
  constructor(params: { markup: boolean }) {
    this.#markup = params.markup;
  }

  /** Starts a wrapper; its tag is written before the next visible text. `href` is for `a`. */
  open(params: { tag: WrapTag; href?: string }): void {
    const nested = NO_SELF_NESTING.has(params.tag) && this.#frames.some((f) => f.active && f.tag === params.tag);
    this.#frames.push({ tag: params.tag, href: params.href, active: !nested, opened: false });
  }

  /** Ends the innermost wrapper (writing its end tag if its start tag was written). */
  close(): void {
    const frame = this.#frames.pop();
    if (frame?.opened === true) this.#emitEnd({ frame });
  }

  /**
   * Writes text, escaped. Its own line breaks are soft (a wrapped paragraph line, a hard break): the next line
   * is not indented, since markdown lets such lines start unindented (lazy continuation) and an added
   * indentation would make the text longer than its source.
   */
  text(params: { text: string }): void {
    const lines = params.text.split('\n');
    lines.forEach((line, index) => {
      if (index > 0) {
        this.#breaks += '\n';
        this.#lineStart = false;
      }
      if (line === '') return;
      this.#flushBreaks();
      this.#openPending({ end: this.#frames.length });
      const indent = this.#lineStart ? this.#indents.join('') : '';
      this.#lineStart = false;
      this.#out.push(this.#escape(indent + line));
    });
  }

  /** Ends a block: a line break (two for `blank`); the next line starts with the current indentation. */
  blockBreak(params: { blank: boolean }): void {
    this.#breaks += params.blank ? '\n\n' : '\n';
    this.#lineStart = true;
  }

  /** Writes an inline code span, verbatim apart from escaping; empty spans write nothing. */
  code(params: { text: string }): void {
    if (params.text === '') return;
    const inline = this.#firstInlineFrame();
    this.#closeFrom({ index: inline });
    this.#flushBreaks();
    this.#openPending({ end: inline });
    this.#lineStart = false;
    const body = this.#escape(params.text);
    this.#out.push(this.#markup ? `<code>${body}</code>` : body);
  }

  /** Writes a preformatted block (`lang` from the fence's info string), verbatim apart from escaping. */
  pre(params: { text: string; lang?: string }): void {
    if (params.text === '') return;
    this.#closeFrom({ index: 0 });
    this.#flushBreaks();
    this.#lineStart = false;
    const body = this.#escape(params.text);
    if (!this.#markup) {
      this.#out.push(body);
      return;
    }
    const lang = codeLanguage({ info: params.lang });
    this.#out.push(lang === null ? `<pre>${body}</pre>` : `<pre><code class="language-${escapeAttribute({ value: lang })}">${body}</code></pre>`);
  }

  /** Adds indentation for the block starts that follow (a list item's further blocks). */
  pushIndent(params: { indent: string }): void {
    this.#indents.push(params.indent);
  }

  /** Removes the indentation added last. */
  popIndent(): void {
    this.#indents.pop();
  }

  /** The document so far, with every wrapper still open closed (trailing line breaks are dropped). */
  finish(): string {
    while (this.#frames.length > 0) this.close();
    return this.#out.join('');
  }

  /** Writes the pending line breaks. */
  #flushBreaks(): void {
    this.#out.push(this.#breaks);
    this.#breaks = '';
  }

  /** Escapes text in markup mode; plain mode keeps it as is. */
  #escape(text: string): string {
    return this.#markup ? escapeHtml({ text }) : text;
  }

  /** Writes the start tags of active wrappers below `end` that are not open, outermost first. */
  #openPending(params: { end: number }): void {
    for (const frame of this.#frames.slice(0, params.end)) {
      if (!frame.active || frame.opened) continue;
      frame.opened = true;
      if (!this.#markup) continue;
      const attrs = frame.href === undefined ? '' : ` href="${escapeAttribute({ value: frame.href })}"`;
      this.#out.push(`<${frame.tag}${attrs}>`);
    }
  }

  /** Closes the open wrappers from the innermost down to `index`; they reopen before the next text. */
  #closeFrom(params: { index: number }): void {
    for (let i = this.#frames.length - 1; i >= params.index; i--) {
      const frame = this.#frames[i];
      if (frame?.opened === true) this.#emitEnd({ frame });
    }
  }

  /** Writes a wrapper's end tag and marks it closed. */
  #emitEnd(params: { frame: Frame }): void {
    params.frame.opened = false;
    if (this.#markup) this.#out.push(`</${params.frame.tag}>`);
  }

  /** Index of the outermost wrapper a code span may not sit in (everything but blockquote). */
  #firstInlineFrame(): number {
    const index = this.#frames.findIndex((f) => f.tag !== 'blockquote');
    return index === -1 ? this.#frames.length : index;
  }
}
