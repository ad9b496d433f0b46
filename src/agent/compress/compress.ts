import type { ChatMessage } from '../messages.js';
import { headEnd, tailStart } from './boundaries.js';
import { clearOldToolResults } from './clear-tool-results.js';
import { summaryRequest } from './prompt.js';
import { fallbackNote, isSummaryMessage, summaryMessage, summaryText } from './summary-message.js';
import { trimToTokens } from './trim.js';
import type { CompressParams, CompressResult } from './types.js';
import { errorMessage } from '../../util/error-text.js';

/** Default share of the threshold kept verbatim at the end. */
export const defaultTailRatio = 0.2;
/** Default cap of a summary, in tokens. */
export const defaultSummaryMaxTokens = 12_000;
/** The smallest cap a summary gets, however tight the budget. */
export const minSummaryTokens = 256;

/** What replaces the messages after an earlier summary when updating it failed (the earlier note is kept). */
const laterRemovedNote =
  '[Later messages were also removed to save context; a summary of them could not be made. Ask the user to ' +
  'restate anything still needed, or look it up with session_search.]';

function sum(values: readonly number[], from = 0, to = values.length): number {
  let total = 0;
  for (let i = from; i < to; i++) total += values[i] ?? 0;
  return total;
}

/**
 * Compresses a conversation to fit `threshold` estimated tokens. Step 1 clears old tool output (no model call) and
 * stops there when that is enough; otherwise the head (first exchange) and a tail of `tailRatio × threshold` tokens
 * (at most half the room the overhead leaves)
 * stay verbatim and the middle becomes one summary message (an update of the earlier summary when the middle starts
 * with one). Never throws for a failing summariser: a fixed fallback note takes the summary's place. The output is
 * valid for the next API call whenever the input was (every tool result right after its call).
 */
export async function compressHistory(params: CompressParams): Promise<CompressResult> {
  const { countTokens, threshold, summarise, signal } = params;
  const overhead = params.overheadTokens ?? 0;
  // The tail is a share of the threshold, but never more than half of the room the fixed part leaves for messages
  // (a large system prompt and tool list on a small context would otherwise keep a tail that cannot fit).
  const room = Math.max(0, threshold - overhead);
  const tailBudget = Math.min(Math.floor((params.tailRatio ?? defaultTailRatio) * threshold), Math.floor(room / 2));
  const summaryMax = params.summaryMaxTokens ?? defaultSummaryMaxTokens;
  const original = params.messages;
  const originalTokens = original.map((m) => countTokens(m));
  const before = overhead + sum(originalTokens);
  const unchanged = (outcome: 'under_threshold'): CompressResult => ({
    messages: [...original],
    summary: undefined,
    outcome,
    stats: { before, after: before, clearedToolResults: 0, summarised: 0 },
  });
  if (!params.force && before <= threshold) return unchanged('under_threshold');

  // Step 1: clear old tool output outside the protected tail.
  // The tail never holds an earlier summary: that summary is middle, so it gets updated instead of kept twice.
  const firstHead = headEnd({ messages: original, tokens: originalTokens, maxTokens: tailBudget });
  const lastSummary = original.findLastIndex((m, i) => i >= firstHead && isSummaryMessage(m));
  const tail = tailStart({ messages: original, tokens: originalTokens, maxTokens: tailBudget, minStart: Math.max(firstHead, lastSummary + 1) });
  const cleared = clearOldToolResults({ messages: original, before: tail });
  const tokens = [...originalTokens];
  for (const i of cleared.changed) {
    const message = cleared.messages[i];
    if (message !== undefined) tokens[i] = countTokens(message);
  }
  const afterClearing = overhead + sum(tokens);
  const stepOne = (outcome: 'cleared' | 'nothing_to_summarise' | 'aborted', error?: string): CompressResult => ({
    messages: cleared.messages,
    summary: undefined,
    outcome,
    stats: { before, after: afterClearing, clearedToolResults: cleared.cleared, summarised: 0 },
    ...(error !== undefined ? { error } : {}),
  });
  if (!params.force && afterClearing <= threshold) return stepOne('cleared');

  // Step 2: the protected head (re-measured after clearing) and tail; the middle between them.
  const head = Math.min(headEnd({ messages: cleared.messages, tokens, maxTokens: tailBudget }), tail);
  if (head >= tail) return stepOne('nothing_to_summarise');
  const between = original.slice(head, tail);
  const earlier = between.find((m) => isSummaryMessage(m));
  const previous = earlier !== undefined && isSummaryMessage(earlier) ? summaryText(earlier) : undefined;
  const middle = between.filter((m) => m !== earlier);
  if (middle.length === 0) return stepOne('nothing_to_summarise');

  // Step 3: summarise (or update the earlier summary), capped to what the budget leaves.
  const available = threshold - overhead - sum(tokens, 0, head) - sum(tokens, tail);
  const cap = Math.min(summaryMax, Math.max(minSummaryTokens, Math.floor(available * 0.5)));
  const request = summaryRequest({ previous, middle, maxTokens: cap, ...(params.transcriptMaxChars !== undefined ? { transcriptMaxChars: params.transcriptMaxChars } : {}) });
  let text: string;
  let error: string | undefined;
  try {
    text = (await summarise({ system: request.system, user: request.user, signal, maxTokens: cap })).trim();
    if (text === '') error = 'the summary was empty';
  } catch (err) {
    if (signal.aborted) return stepOne('aborted', errorMessage(err));
    text = '';
    error = errorMessage(err);
  }
  if (error !== undefined) text = previous === undefined ? fallbackNote : `${previous}\n\n${laterRemovedNote}`;
  const trimmed = trimToTokens({ text, maxTokens: cap, measure: (t) => countTokens(summaryMessage({ text: t })) });
  const note = summaryMessage({ text: trimmed });
  const messages: ChatMessage[] = [...cleared.messages.slice(0, head), note, ...original.slice(tail)];
  const after = overhead + sum(tokens, 0, head) + countTokens(note) + sum(tokens, tail);
  return {
    messages,
    summary: trimmed,
    outcome: error === undefined ? 'summarised' : 'fallback',
    stats: { before, after, clearedToolResults: cleared.cleared, summarised: tail - head },
    ...(error !== undefined ? { error } : {}),
  };
}
