import type { CountTokens } from './types.js';

/** Marker appended to a summary that was cut to fit its cap. */
export const trimmedMarker = '\n[… summary cut to fit its size limit]';

/**
 * `text` cut (at a line or word end where one is near) so that `measure(text)` is at most `maxTokens`; unchanged
 * when it already fits. Binary search over the length: about log2(length) measurements.
 */
export function trimToTokens(params: { text: string; maxTokens: number; measure: (text: string) => number }): string {
  const { text, maxTokens, measure } = params;
  if (measure(text) <= maxTokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid) + trimmedMarker) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  let cut = lo;
  const newline = text.lastIndexOf('\n', cut);
  if (newline > cut * 0.9) cut = newline;
  else {
    const space = text.lastIndexOf(' ', cut);
    if (space > cut * 0.9) cut = space;
  }
  return text.slice(0, cut).trimEnd() + trimmedMarker;
}

/** A text measure from a message counter: the tokens the text costs as a user message. */
export function textMeasure(params: { countTokens: CountTokens }): (text: string) => number {
  return (text) => params.countTokens({ role: 'user', content: text });
}
