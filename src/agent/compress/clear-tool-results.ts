import type { ChatMessage } from '../messages.js';

/** What an old tool result's content becomes in step 1. */
export const clearedToolOutput = '[old tool output cleared to save context]';

/**
 * Step 1 (no model call): every tool result before `before` whose content is longer than the placeholder is replaced
 * by it. Returns new arrays (the input is not changed) and how many were cleared.
 */
export function clearOldToolResults(params: { messages: readonly ChatMessage[]; before: number }): { messages: ChatMessage[]; cleared: number; changed: number[] } {
  const changed: number[] = [];
  const messages = params.messages.map((message, i): ChatMessage => {
    if (i >= params.before || message.role !== 'tool' || message.content.length <= clearedToolOutput.length) return message;
    changed.push(i);
    return { ...message, content: clearedToolOutput };
  });
  return { messages, cleared: changed.length, changed };
}
