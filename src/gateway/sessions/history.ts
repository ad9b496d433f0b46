import type { ChatMessage } from '../../agent/types.js';
import type { NewMessage, Store, StoredMessage } from '../../store/types.js';

/** Converts stored history into the agent's message shape. */
export function toChatHistory(params: { messages: readonly StoredMessage[] }): ChatMessage[] {
  return params.messages.map((m): ChatMessage => {
    if (m.role === 'tool') {
      return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '', ...(m.toolName ? { name: m.toolName } : {}) };
    }
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
    }
    return { role: m.role, content: m.content };
  });
}

/** Converts one message the agent added into a store row of the turn `inboxId`. */
export function toStoredMessage(params: { message: ChatMessage; sessionId: string; inboxId: number }): NewMessage {
  const { message } = params;
  return {
    sessionId: params.sessionId,
    inboxId: params.inboxId,
    role: message.role,
    content: message.content ?? '',
    toolCalls:
      message.role === 'assistant' && message.tool_calls
        ? message.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }))
        : null,
    toolCallId: message.role === 'tool' ? message.tool_call_id : null,
    toolName: message.role === 'tool' ? (message.name ?? null) : null,
  };
}

/**
 * The conversation a session's next request sends: every stored message of the session, in order. A compressed
 * session starts at its head (summary and tail), and compression keeps a session under its threshold in tokens, so
 * nothing is cut here: a count or character cut would drop the head (the first exchange, the summary) silently.
 * The turn, `/compress` and `/status` all read it, so they agree on what the model gets.
 */
export function sessionHistory(params: { store: Store; sessionId: string }): ChatMessage[] {
  return toChatHistory({ messages: params.store.history({ sessionId: params.sessionId }) });
}
