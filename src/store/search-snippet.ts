import { foldText, tokenMatches, type QueryTerm } from './search-terms.js';

/** Words of a snippet, as FTS5's snippet() counted them for `hermes sessions search`. */
const SNIPPET_WORDS = 16;
/** Words kept before the first match when the text is cut. */
const LEAD_WORDS = 4;

/**
 * A short stretch of `text` around its first word a term looks for, every such word marked `[word]`, `…` where the
 * text was cut (FTS5's snippet() shape, computed from the text alone: no second pass over the index).
 */
export function markedSnippet(params: { text: string; terms: readonly QueryTerm[] }): string {
  const { text, terms } = params;
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => {
    const token = foldText({ text: m[0] });
    return { start: m.index, end: m.index + m[0].length, hit: terms.some((term) => tokenMatches({ token, term })) };
  });
  if (words.length === 0) return text.slice(0, 200);
  const first = Math.max(0, words.findIndex((w) => w.hit));
  const from = Math.max(0, Math.min(first - LEAD_WORDS, words.length - SNIPPET_WORDS));
  const to = Math.min(words.length, from + SNIPPET_WORDS);
  const shown = words.slice(from, to);
  const begin = from === 0 ? 0 : (shown[0]?.start ?? 0);
  const finish = to === words.length ? text.length : (shown.at(-1)?.end ?? text.length);
  let out = '';
  let at = begin;
  for (const word of shown) {
    out += text.slice(at, word.start);
    out += word.hit ? `[${text.slice(word.start, word.end)}]` : text.slice(word.start, word.end);
    at = word.end;
  }
  out += text.slice(at, finish);
  return `${from > 0 ? '…' : ''}${out}${to < words.length ? '…' : ''}`;
}
