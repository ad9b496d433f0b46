import type { ChatMessage } from '../messages.js';
import { isSummaryMessage } from './summary-message.js';

/** True when a cut just before `index` leaves every tool result after its call (a tool message is never first). */
export function isSafeCut(params: { messages: readonly ChatMessage[]; index: number }): boolean {
  const message = params.messages[params.index];
  return message === undefined || message.role !== 'tool';
}

/** The nearest safe cut at or after `index`. */
function safeForward(messages: readonly ChatMessage[], index: number): number {
  let i = index;
  while (!isSafeCut({ messages, index: i })) i++;
  return i;
}

/** The nearest safe cut at or before `index` (0 at worst). */
function safeBackward(messages: readonly ChatMessage[], index: number): number {
  let i = index;
  while (i > 0 && !isSafeCut({ messages, index: i })) i--;
  return i;
}

/**
 * End (exclusive) of the protected head: everything up to the first user message, that message, and the assistant's
 * reply to it with the tool calls and results between (up to the first assistant text without tool calls, or the
 * next user message). Empty when the history starts with an earlier summary (that summary is middle: it gets
 * updated). Capped at `maxTokens` at a safe cut (never less than through the first user message).
 */
export function headEnd(params: { messages: readonly ChatMessage[]; tokens: readonly number[]; maxTokens: number }): number {
  const { messages, tokens, maxTokens } = params;
  const first = messages.findIndex((m) => m.role === 'user');
  if (first < 0) return 0;
  const firstMessage = messages[first];
  if (firstMessage !== undefined && isSummaryMessage(firstMessage)) return 0;
  let end = first + 1;
  while (end < messages.length) {
    const message = messages[end];
    if (message === undefined || message.role === 'user') break;
    end++;
    if (message.role === 'assistant' && (message.tool_calls ?? []).length === 0) break;
  }
  end = safeForward(messages, end);
  let total = 0;
  for (let i = 0; i < end; i++) {
    total += tokens[i] ?? 0;
    if (total > maxTokens && i > first) return Math.max(first + 1, safeBackward(messages, i));
  }
  return end;
}

/**
 * Start of the protected tail: the most recent messages that fit in `maxTokens` (at least the last message), moved
 * back to the assistant message whose tool results it would otherwise split; forward instead when moving back would
 * reach into the head. Never before `minStart`.
 */
export function tailStart(params: { messages: readonly ChatMessage[]; tokens: readonly number[]; maxTokens: number; minStart: number }): number {
  const { messages, tokens, maxTokens, minStart } = params;
  if (messages.length <= minStart) return messages.length;
  let start = messages.length - 1;
  let total = tokens[start] ?? 0;
  while (start - 1 >= minStart && total + (tokens[start - 1] ?? 0) <= maxTokens) {
    start--;
    total += tokens[start] ?? 0;
  }
  if (isSafeCut({ messages, index: start })) return start;
  const back = safeBackward(messages, start);
  if (back >= minStart && isSafeCut({ messages, index: back })) return back;
  return safeForward(messages, start);
}
