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
  const state: StreamState = { content: '', finishReason: null, usage: NO_USAGE, calls: new Map() };
  const reader = idleReader({ iterator: params.stream[Symbol.asyncIterator](), idleTimeoutMs: params.idleTimeoutMs, clock: params.clock });
  try {
    for (;;) {
      const next = await reader.next();
      if (next.done) break;
      applyChunk({ state, chunk: next.value, onText: params.onText });
    }
  } finally {
    reader.stop();
  }
  const toolCalls = [...state.calls.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([, call]) => call.name !== '' || call.args !== '')
    .map(([index, call]): ChatToolCall => ({
      id: call.id || `call_${index}_${randomUUID().slice(0, 8)}`,
      type: 'function',
      function: { name: call.name, arguments: call.args },
    }));
  return { content: state.content, toolCalls, finishReason: state.finishReason, usage: state.usage };
}

/** What the chunks so far added up to. */
interface StreamState {
  content: string;
  finishReason: string | null;
  usage: ModelUsage;
  readonly calls: Map<number, PendingCall>;
}

/** Folds one chunk into the state: its content delta (also given to `onText`), tool call pieces, finish reason, usage. */
function applyChunk(params: { state: StreamState; chunk: ChatCompletionChunk; onText: (delta: string) => void }): void {
  const { state, chunk } = params;
  // With include_usage the last chunk carries `usage` and an empty `choices`; others may carry `usage: null`.
  state.usage = parseUsage({ usage: chunk.usage }) ?? state.usage;
  const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
  if (!choice) return;
  const delta = choice.delta;
  if (typeof delta?.content === 'string' && delta.content !== '') {
    state.content += delta.content;
    params.onText(delta.content);
  }
  (delta?.tool_calls ?? []).forEach((part, position) => {
    const index = typeof part.index === 'number' ? part.index : position;
    const call = state.calls.get(index) ?? { id: '', name: '', args: '' };
    state.calls.set(index, call);
    if (part.id && !call.id) call.id = part.id;
    if (part.function?.name && !call.name) call.name = part.function.name;
    if (part.function?.arguments) call.args += part.function.arguments;
  });
  if (choice.finish_reason) state.finishReason = choice.finish_reason;
}

/** The reason the watchdog's sleep is cut short with when the stream ends (no DOMException built per stream). */
const STREAM_ENDED = new Error('the stream ended');

/**
 * One idle timer for a whole stream: `next` reads the iterator's next result, or throws StreamIdleTimeoutError when
 * nothing arrived for `idleTimeoutMs` since the previous result (one timer re-armed on wake-up, rather than a timer
 * and an AbortController per chunk: a long reply has thousands of chunks). `stop` ends the timer.
 */
function idleReader<T>(params: { iterator: AsyncIterator<T>; idleTimeoutMs: number; clock: Clock }): { next: () => Promise<IteratorResult<T>>; stop: () => void } {
  const { iterator, idleTimeoutMs, clock } = params;
  const stopped = new AbortController();
  let last = clock.now();
  let failCurrent: ((error: Error) => void) | undefined;
  const watch = async (): Promise<void> => {
    for (;;) {
      const wait = last + idleTimeoutMs - clock.now();
      if (wait <= 0 && failCurrent !== undefined) {
        failCurrent(new StreamIdleTimeoutError({ idleMs: idleTimeoutMs }));
        return;
      }
      await clock.sleep(Math.max(wait, 1), stopped.signal);
    }
  };
  watch().catch(() => undefined);
  return {
    next: () =>
      new Promise<IteratorResult<T>>((resolve, reject) => {
        failCurrent = (error) => {
          // The caller aborts the request, which settles the pending read; nobody waits for it any more.
          reject(error);
        };
        iterator.next().then(
          (result) => {
            last = clock.now();
            failCurrent = undefined;
            resolve(result);
          },
          (error: unknown) => {
            failCurrent = undefined;
            reject(error);
          },
        );
      }),
    stop: () => stopped.abort(STREAM_ENDED),
  };
}
