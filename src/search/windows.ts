import { foldText, tokenMatches, type QueryTerm } from '../store/search-terms.js';
import type { SearchedMessage } from '../store/types.js';

/** The text with every run of whitespace (newlines too) as one space. */
export function flatten(params: { text: string }): string {
  return params.text.replace(/\s+/g, ' ').trim();
}

/** Index of the first word in `text` that a term looks for; -1 when none is (the match was in folded form only). */
export function firstMatch(params: { text: string; terms: readonly QueryTerm[] }): number {
  for (const word of params.text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const token = foldText({ text: word[0] });
    if (params.terms.some((term) => tokenMatches({ token, term }))) return word.index;
  }
  return -1;
}

/** Moves a cut to the nearest space within a few characters, so words are not split. */
function snap(text: string, at: number, direction: -1 | 1): number {
  for (let i = 0; i < 16; i += 1) {
    const pos = at + i * direction;
    if (pos <= 0 || pos >= text.length) break;
    if (text[pos] === ' ') return pos;
  }
  return at;
}

/** At most `maxChars` of `text` around `center` (a third before it), with … where it was cut. */
export function windowAround(params: { text: string; center: number; maxChars: number }): string {
  const { text, maxChars } = params;
  if (text.length <= maxChars) return text;
  const room = Math.max(1, maxChars - 2);
  let start = Math.max(0, Math.min(params.center - Math.floor(room / 3), text.length - room));
  let end = Math.min(text.length, start + room);
  if (start > 0) start = snap(text, start, 1);
  if (end < text.length) end = snap(text, end, -1);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/** The head (`from: 'start'`) or tail of a text in at most `maxChars`, with … where it was cut. */
export function edge(params: { text: string; maxChars: number; from: 'start' | 'end' }): string {
  const { text, maxChars } = params;
  if (text.length <= maxChars) return text;
  const room = Math.max(1, maxChars - 1);
  if (params.from === 'start') return `${text.slice(0, snap(text, room, -1)).trim()}…`;
  return `…${text.slice(snap(text, text.length - room, 1)).trim()}`;
}

/** Who said a message, for a window line: "user", "assistant", "tool read_file". */
export function speaker(params: { message: SearchedMessage }): string {
  const { message } = params;
  return message.role === 'tool' && message.toolName !== null ? `tool ${message.toolName}` : message.role;
}

/** Sizes of one window: the matching message and each neighbour, in characters. */
export interface WindowSizes {
  readonly match: number;
  readonly neighbour: number;
}

/**
 * One match as lines: the message before (its end), the matching message (around the first matching word, marked
 * with ">"), the message after (its start). Empty neighbours (tool-call-only turns) are left out.
 */
export function matchWindow(params: {
  match: { message: SearchedMessage; before: SearchedMessage | null; after: SearchedMessage | null };
  terms: readonly QueryTerm[];
  sizes: WindowSizes;
  clean: (text: string) => string;
}): string {
  const { match, terms, sizes, clean } = params;
  const lines: string[] = [];
  const neighbour = (message: SearchedMessage | null, from: 'start' | 'end'): void => {
    if (message === null) return;
    const text = flatten({ text: clean(message.content) });
    if (text === '') return;
    lines.push(`  ${speaker({ message })}: ${edge({ text, maxChars: sizes.neighbour, from })}`);
  };
  neighbour(match.before, 'end');
  const text = flatten({ text: clean(match.message.content) });
  const center = Math.max(0, firstMatch({ text, terms }));
  lines.push(`> ${speaker({ message: match.message })}: ${windowAround({ text, center, maxChars: sizes.match })}`);
  neighbour(match.after, 'start');
  return lines.join('\n');
}
