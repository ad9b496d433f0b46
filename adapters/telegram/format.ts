import { Lexer, type MarkedOptions, type TokensList } from 'marked';
import { renderBlocks } from './format-blocks.js';
import { htmlToText } from './format-text.js';
import { TelegramWriter } from './format-writer.js';

/**
 * Markdown → Telegram HTML (https://core.telegram.org/bots/api#html-style).
 *
 * The markdown is lexed with marked (GFM) and the tokens are walked here, so the output holds only tags
 * Telegram accepts: <b> (strong, headings), <i> (em), <s> (strikethrough), <code>, <pre> and
 * <pre><code class="language-x">, <a href> (http, https, tg and mailto URLs only) and <blockquote>.
 * Markdown has no syntax for <u> or <tg-spoiler>, so they are never produced. Everything else is text:
 * lists become "• item" / "N. item" lines (nested ones indented), tables a <pre> block of their source,
 * images a link to the image, rules "———", raw HTML its escaped source.
 *
 * Guarantees:
 * - Well-formed for any input, including a half-streamed reply (unclosed `**`, "```" or "[label(" ): tags are
 *   written by a writer that closes what it opens. Nestings Telegram rejects are split instead: a code span
 *   inside bold or a link closes them around itself, a code block closes an enclosing quote, and a quote
 *   inside a quote or a link inside a link is flattened.
 * - Code spans and blocks keep their content verbatim, only escaped (&, <, >; and " in attributes); a block
 *   loses only its trailing line breaks.
 * - Length: the visible text (see `visibleLength`) is at most the markdown's length plus the extra digits of
 *   renumbered list items (items are numbered from the list's start, so "1." reused for a tenth item becomes
 *   "10.", one unit more). Delimiters and markers are dropped, entities decoded, blank-line runs collapsed,
 *   and indentation is only added where the markdown had at least as much. The one known exception is
 *   marked's own normalisation inside list items (a tab expanded to spaces, a lazy line re-indented), which
 *   can add a few units in such odd input.
 * - Emoji and other non-BMP characters pass through untouched (text is never cut).
 * An empty result means nothing visible (for example a lone "```" at the start of a stream).
 */

/** Lexer options, explicit so changes to marked's global defaults elsewhere cannot alter the output. */
const LEXER_OPTIONS: MarkedOptions = { gfm: true, breaks: false, pedantic: false, silent: false };

/** Lexes markdown into marked's block tokens. */
function lex(params: { markdown: string }): TokensList {
  return new Lexer(LEXER_OPTIONS).lex(params.markdown);
}

/** Renders the markdown with a writer in the given mode. */
function render(params: { markdown: string; markup: boolean }): string {
  const writer = new TelegramWriter({ markup: params.markup });
  renderBlocks({ tokens: lex({ markdown: params.markdown }), ctx: { writer, spellOutLinks: !params.markup } });
  return writer.finish();
}

/** Converts markdown to HTML for Telegram's `parse_mode: "HTML"` (see the guarantees above). */
export function toTelegramHtml(params: { markdown: string }): string {
  return render({ markdown: params.markdown, markup: true });
}

/**
 * The same content as plain text, for resending when Telegram rejects the HTML ("can't parse entities"):
 * no tags, no escaping, and a link's URL in parentheses after its label (unless the label is the URL).
 */
export function plainText(params: { markdown: string }): string {
  return render({ markdown: params.markdown, markup: false });
}

/**
 * The length Telegram counts for a message sent as `html`: UTF-16 units of its text with tags removed and
 * the references Telegram knows (&lt; &gt; &amp; &quot; and numeric ones) decoded.
 */
export function visibleLength(params: { html: string }): number {
  return htmlToText({ html: params.html }).length;
}
