import type { ChatMessage } from './messages.js';

/** Characters a message costs in the context: its text plus any tool call arguments. */
function size(message: ChatMessage): number {
  const content = message.content ?? '';
  if (message.role !== 'assistant' || !message.tool_calls) return content.length;
  return content.length + message.tool_calls.reduce((sum, c) => sum + c.function.name.length + c.function.arguments.length, 0);
}

/**
 * The newest part of a conversation that fits in `maxChars`, cut only where a user message starts, so every
 * tool result still follows the assistant message that called it. Older turns stay in the store.
 */
export function windowHistory(params: { messages: readonly ChatMessage[]; maxChars: number }): ChatMessage[] {
  const { messages, maxChars } = params;
  let total = 0;
  let start = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined) break;
    total += size(message);
    if (total > maxChars) break;
    if (message.role === 'user') start = i;
  }
  return messages.slice(start);
}
