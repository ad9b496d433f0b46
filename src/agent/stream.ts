import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ChatToolCall } from './messages.js';

/** One streamed reply, reassembled. */
export interface StreamedReply {
  /** All content deltas joined. */
  content: string;
  /** Tool calls reassembled from their deltas, in index order. */
  toolCalls: ChatToolCall[];
  /** finish_reason of the reply, if the server sent one. */
  finishReason: string | null;
}

/** Partial state of one tool call while its deltas arrive. */
interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/**
 * Reads a chat.completions stream: content deltas go to `onText` as they arrive, tool call deltas
 * are joined by `index` (the first delta carries id and name, later ones pieces of the arguments).
 */
export async function collectStream(params: {
  stream: AsyncIterable<ChatCompletionChunk>;
  onText: (delta: string) => void;
}): Promise<StreamedReply> {
  let content = '';
  let finishReason: string | null = null;
  const calls = new Map<number, PendingCall>();
  for await (const chunk of params.stream) {
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta;
    if (typeof delta?.content === 'string' && delta.content !== '') {
      content += delta.content;
      params.onText(delta.content);
    }
    (delta?.tool_calls ?? []).forEach((part, position) => {
      const index = typeof part.index === 'number' ? part.index : position;
      const call = calls.get(index) ?? { id: '', name: '', args: '' };
      calls.set(index, call);
      if (part.id && !call.id) call.id = part.id;
      if (part.function?.name && !call.name) call.name = part.function.name;
      if (part.function?.arguments) call.args += part.function.arguments;
    });
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([, call]) => call.name !== '' || call.args !== '')
    .map(([index, call]): ChatToolCall => ({
      id: call.id || `call_${index}_${randomUUID().slice(0, 8)}`,
      type: 'function',
      function: { name: call.name, arguments: call.args },
    }));
  return { content, toolCalls, finishReason };
}
