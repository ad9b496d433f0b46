import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { Clock } from '../util/clock.js';
import { classifyError } from './classify.js';
import type { ClassifiedError } from './errors.js';
import { sleepBeforeRetry } from './retry.js';
import { collectStream, type StreamedReply } from './stream.js';
import type { AgentLogger } from './types.js';

/** Longest Retry-After we wait out inside a turn; longer ones end the turn with a message. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** How one model call (with its retries) ended. */
export type ModelCallOutcome =
  | { kind: 'ok'; reply: StreamedReply }
  | { kind: 'aborted'; partialText: string }
  | { kind: 'error'; error: ClassifiedError; partialText: string };

/**
 * Streams one chat completion. Transient failures are retried with backoff up to `maxRetries`
 * times, but only while nothing has been shown to the user for the current attempt.
 */
export async function callModel(params: {
  client: OpenAI;
  request: Omit<ChatCompletionCreateParamsStreaming, 'stream'>;
  signal: AbortSignal;
  clock: Clock;
  maxRetries: number;
  onText: (delta: string) => void;
  logger?: AgentLogger;
}): Promise<ModelCallOutcome> {
  const { client, signal } = params;
  for (let attempt = 0; ; attempt++) {
    let emitted = '';
    try {
      const stream = await client.chat.completions.create(
        { ...params.request, stream: true },
        { signal, maxRetries: 0 },
      );
      const reply = await collectStream({
        stream,
        onText: (delta) => {
          emitted += delta;
          params.onText(delta);
        },
      });
      if (signal.aborted) return { kind: 'aborted', partialText: emitted };
      return { kind: 'ok', reply };
    } catch (error) {
      if (signal.aborted) return { kind: 'aborted', partialText: emitted };
      const classified = classifyError({
        error,
        model: params.request.model,
        baseURL: client.baseURL,
        apiKey: client.apiKey ?? undefined,
        now: params.clock.now(),
      });
      if (classified.kind === 'aborted') return { kind: 'aborted', partialText: emitted };
      const giveUp = giveUpReason({ classified, attempt, maxRetries: params.maxRetries, emitted });
      if (giveUp !== undefined) {
        params.logger?.warn({ kind: classified.kind, attempt }, 'model call failed');
        const userMessage = classified.userMessage + giveUp;
        return { kind: 'error', error: { ...classified, userMessage }, partialText: emitted };
      }
      const retryAfterMs = classified.retryAfterMs;
      params.logger?.warn({ kind: classified.kind, attempt, retryAfterMs }, 'model call failed; retrying');
      try {
        await sleepBeforeRetry({ attempt, retryAfterMs: classified.retryAfterMs, clock: params.clock, signal });
      } catch {
        return { kind: 'aborted', partialText: '' };
      }
    }
  }
}

/** Why not to retry (a suffix for the user message), or undefined to retry. */
function giveUpReason(params: {
  classified: ClassifiedError;
  attempt: number;
  maxRetries: number;
  emitted: string;
}): string | undefined {
  const { classified } = params;
  if (params.emitted !== '') return ' The reply above was cut off; send another message to continue.';
  if (!classified.retryable) return '';
  if (params.attempt >= params.maxRetries) {
    return params.maxRetries > 0 ? ` It failed ${params.attempt + 1} times in a row.` : '';
  }
  const waitMs = classified.retryAfterMs ?? 0;
  if (waitMs > MAX_RETRY_AFTER_MS) {
    return ` The provider asked to wait ${Math.ceil(waitMs / 1_000)} s, which is too long to wait inside a reply.`;
  }
  return undefined;
}
