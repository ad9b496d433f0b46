import type { ChatMessage } from '../messages.js';

/**
 * What makes a history invalid for the next API call: a tool result whose call is not in the assistant message right
 * before its group, or a message (other than a tool result) arriving while calls still lack results. Empty when valid.
 * Calls of the very last assistant message may still be unanswered (`unansweredToolCalls` covers that case).
 */
export function toolPairingProblems(params: { messages: readonly ChatMessage[] }): string[] {
  const problems: string[] = [];
  let pending = new Set<string>();
  params.messages.forEach((message, i) => {
    if (message.role === 'tool') {
      if (!pending.delete(message.tool_call_id)) problems.push(`message ${i}: tool result ${message.tool_call_id} has no call before it`);
      return;
    }
    if (pending.size > 0) problems.push(`message ${i} (${message.role}): calls ${[...pending].join(',')} lack results`);
    pending = new Set(message.role === 'assistant' ? (message.tool_calls ?? []).map((c) => c.id) : []);
  });
  return problems;
}
