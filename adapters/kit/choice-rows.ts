import type { OutboundChoice } from '../../src/core/adapter.js';

/** How many buttons a row holds when a message carries four: two rows of two, so labels stay readable on a phone. */
const PAIRS_AT = 4;

/** A message's buttons laid out in rows: one row, or two rows of two for four choices. */
export function choiceRows(params: { choices: readonly OutboundChoice[] }): OutboundChoice[][] {
  const { choices } = params;
  if (choices.length === 0) return [];
  if (choices.length !== PAIRS_AT) return [[...choices]];
  return [choices.slice(0, 2), choices.slice(2, 4)];
}
