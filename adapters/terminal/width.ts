import { stripVTControlCharacters } from 'node:util';

/** Code points a terminal draws two columns wide (East Asian wide and fullwidth forms, emoji). */
const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
/** Code points that take no column (combining marks, zero-width joiners, variation selectors). */
// eslint-disable-next-line no-misleading-character-class -- each code point in the class is matched alone, one at a time
const zero = /[\p{M}\u200b-\u200f\ufe00-\ufe0f]/u;

/** How many columns a line takes on a terminal (escape codes take none). */
export function displayWidth(params: { text: string }): number {
  let width = 0;
  for (const ch of stripVTControlCharacters(params.text)) {
    if (zero.test(ch)) continue;
    width += wide.test(ch) ? 2 : 1;
  }
  return width;
}

/** How many terminal rows one line (no line breaks in it) takes at `columns` wide: at least one. */
export function rowsOf(params: { text: string; columns: number }): number {
  return Math.max(1, Math.ceil(displayWidth({ text: params.text }) / Math.max(1, params.columns)));
}

/**
 * The end of `lines` that fits in `rows` terminal rows at `columns` wide, after a `…` line that says the start is left
 * out (a line taller than what is left is cut to its end). All of them when they fit; none when not even two rows are free.
 */
export function lastRows(params: { lines: readonly string[]; rows: number; columns: number }): string[] {
  const { lines, columns } = params;
  if (lines.reduce((sum, line) => sum + rowsOf({ text: line, columns }), 0) <= params.rows) return [...lines];
  if (params.rows < 2) return [];
  const kept: string[] = [];
  let free = params.rows - 1;
  for (let i = lines.length - 1; i >= 0 && free > 0; i--) {
    const line = lines[i] ?? '';
    const rows = rowsOf({ text: line, columns });
    if (rows <= free) {
      kept.unshift(line);
      free -= rows;
      continue;
    }
    kept.unshift(endOf({ text: line, width: free * Math.max(1, columns) }));
    break;
  }
  return ['…', ...kept];
}

/** The end of a line that takes at most `width` columns. */
function endOf(params: { text: string; width: number }): string {
  const chars = [...stripVTControlCharacters(params.text)];
  let width = 0;
  let start = chars.length;
  while (start > 0) {
    const ch = chars[start - 1] ?? '';
    const w = zero.test(ch) ? 0 : wide.test(ch) ? 2 : 1;
    if (width + w > params.width) break;
    width += w;
    start--;
  }
  return chars.slice(start).join('');
}
