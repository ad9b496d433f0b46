import { stripVTControlCharacters } from 'node:util';

/** Code points a terminal draws two columns wide (East Asian wide and fullwidth forms, emoji). */
const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
/** Code points that take no column (combining marks, zero-width joiners, variation selectors). */
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
