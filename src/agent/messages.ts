import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** A tool call inside an assistant message, exactly as OpenAI shapes it. */
export interface ChatToolCall {
  /** Id the tool result refers back to. */
  id: string;
  /** Always "function". */
  type: 'function';
  /** Which tool, with JSON-text arguments. */
  function: { name: string; arguments: string };
}

/** System prompt message. */
export interface SystemMessage {
  /** Always "system". */
  role: 'system';
  /** The prompt. */
  content: string;
}

/** What the user said. */
export interface UserMessage {
  /** Always "user". */
  role: 'user';
  /** The user's text. */
  content: string;
  /** Images that came with it (data URLs), sent as image parts after the text; never stored (the text names the files). */
  images?: readonly string[];
}

/** What the model said: text, tool calls, or both. */
export interface AssistantMessage {
  /** Always "assistant". */
  role: 'assistant';
  /** The reply text; null when the message only calls tools. */
  content: string | null;
  /** Tools the model asked to run. */
  tool_calls?: ChatToolCall[];
}

/** The result of one tool call. */
export interface ToolMessage {
  /** Always "tool". */
  role: 'tool';
  /** What the tool returned (or why it failed). */
  content: string;
  /** Id of the call this answers. */
  tool_call_id: string;
  /** Name of the tool (kept for display/persistence; not sent to the API). */
  name?: string;
}

/** One message of a conversation: a plain, JSON-serializable shape matching OpenAI's. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Converts history to the chat.completions `messages` parameter. */
export function toOpenAIMessages(params: { messages: readonly ChatMessage[] }): ChatCompletionMessageParam[] {
  return params.messages.map((msg): ChatCompletionMessageParam => {
    switch (msg.role) {
      case 'system':
        return { role: msg.role, content: msg.content };
      case 'user':
        if (msg.images === undefined || msg.images.length === 0) return { role: 'user', content: msg.content };
        return { role: 'user', content: [{ type: 'text', text: msg.content }, ...msg.images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))] };
      case 'assistant':
        return msg.tool_calls && msg.tool_calls.length > 0
          ? { role: 'assistant', content: msg.content, tool_calls: msg.tool_calls }
          : { role: 'assistant', content: msg.content ?? '' };
      case 'tool':
        return { role: 'tool', content: msg.content, tool_call_id: msg.tool_call_id };
    }
  });
}

/**
 * Tool calls of the last assistant message that have no tool result after it. A history is only
 * valid for the next API call when this is empty.
 */
export function unansweredToolCalls(params: { messages: readonly ChatMessage[] }): ChatToolCall[] {
  const { messages } = params;
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = messages[i];
    if (msg?.role !== 'assistant') continue;
    const answered = new Set(
      messages.slice(i + 1).flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])),
    );
    return (msg.tool_calls ?? []).filter((call) => !answered.has(call.id));
  }
  return [];
}
