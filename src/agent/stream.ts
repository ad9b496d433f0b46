import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Clock } from '../core/clock.js';
import type { ChatToolCall } from './messages.js';
import { NO_USAGE, parseUsage, type ModelUsage } from './usage.js';

/** The stream sent nothing for the idle timeout; classified like the SDK's own request timeout. */
export class StreamIdleTimeoutError extends OpenAI.APIConnectionTimeoutError {
  constructor(params: { idleMs: number }) {
    super({ message: `The model stream sent nothing for ${Math.round(params.idleMs / 1_000)} s.` });
  }
}

/** One streamed reply, reassembled. */
export interface StreamedReply {
  /** All content deltas joined. */
  content: string;
  /** Tool calls reassembled from their deltas, in index order. */
  toolCalls: ChatToolCall[];
  /** finish_reason of the reply, if the server sent one. */
  finishReason: string | null;
  /** Token counts from the stream's usage chunk (all null when the endpoint sent none). */
  usage: ModelUsage;
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
 * Throws StreamIdleTimeoutError when no chunk arrives for `idleTimeoutMs`; the caller must then
 * abort the request.
 */
export async function collectStream(params: {
  stream: AsyncIterable<ChatCompletionChunk>;
  onText: (delta: string) => void;
  idleTimeoutMs: number;
  clock: Clock;
}): Promise<StreamedReply> {
  let content = '';
  let finishReason: string | null = null;
  let usage: ModelUsage = NO_USAGE;
  const calls = new Map<number, PendingCall>();
  const iterator = params.stream[Symbol.asyncIterator]();
  for (;;) {
    const next = await nextWithin({ iterator, idleTimeoutMs: params.idleTimeoutMs, clock: params.clock });
    if (next.done) break;
    const chunk = next.value;
    // With include_usage the last chunk carries `usage` and an empty `choices`; others may carry `usage: null`.
    usage = parseUsage({ usage: chunk.usage }) ?? usage;
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
  return { content, toolCalls, finishReason, usage };
}

/** Marks the idle timer winning the race against the next chunk. */
const IDLE = Symbol('idle');

/** The iterator's next result, or StreamIdleTimeoutError when it takes longer than `idleTimeoutMs`. */
async function nextWithin<T>(params: {
  iterator: AsyncIterator<T>;
  idleTimeoutMs: number;
  clock: Clock;
}): Promise<IteratorResult<T>> {
  const timer = new AbortController();
  const pending = params.iterator.next();
  // Cancelled in `finally` once the race is decided; it then never settles.
  const idle = params.clock.sleep(params.idleTimeoutMs, timer.signal).then(
    (): typeof IDLE => IDLE,
    () => new Promise<never>(() => undefined),
  );
  try {
    const winner = await Promise.race([pending, idle]);
    if (winner !== IDLE) return winner;
    // The caller aborts the request, which settles `pending`; nobody waits for it any more.
    pending.catch(() => undefined);
    throw new StreamIdleTimeoutError({ idleMs: params.idleTimeoutMs });
  } finally {
    timer.abort();
  }
}
