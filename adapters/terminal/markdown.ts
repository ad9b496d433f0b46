import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

/** One Marked instance with the terminal renderer (its own: the global `marked` other adapters use stays untouched). */
let renderer: Marked | undefined;

/** The terminal renderer, made on first use. */
function terminalMarked(): Marked {
  if (renderer === undefined) {
    renderer = new Marked();
    // marked-terminal's typings name an older marked's extension type; the object is the extension marked 18 takes.
    renderer.use(markedTerminal({ reflowText: false, tab: 2 }) as Parameters<Marked['use']>[0]);
  }
  return renderer;
}

/** Markdown rendered for a terminal (bold, code, lists, tables as marked-terminal draws them), without trailing blank lines. */
export function renderMarkdown(params: { text: string }): string {
  const out = terminalMarked().parse(params.text, { async: false });
  return out.replace(/\s+$/, '');
}

/**
 * How much of streamed Markdown is finished blocks: every block but the last one the lexer sees (the last may still
 * grow: a paragraph mid-sentence, an open code fence, a list that gets another item). 0 when nothing is finished yet.
 */
export function finishedLength(params: { text: string }): number {
  const tokens = terminalMarked().lexer(params.text);
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]?.type === 'space') last--;
  if (last <= 0) return 0;
  const prefix = tokens
    .slice(0, last)
    .map((t) => t.raw)
    .join('');
  // The lexer normalizes line ends; when its pieces do not spell the text's start, nothing is taken as finished.
  return params.text.startsWith(prefix) ? prefix.length : 0;
}
