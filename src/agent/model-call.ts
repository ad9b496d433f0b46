import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { Clock } from '../core/clock.js';
import { classifyError } from './classify.js';
import type { ClassifiedError, OnModelAttempt } from './errors.js';
import { sleepBeforeRetry } from './retry.js';
import { collectStream, type StreamedReply } from './stream.js';
import type { AgentLogger } from './errors.js';
import { isStreamOptionsRefusal, streamUsageSupport, type StreamUsageSupport } from './usage.js';

/** Longest Retry-After we wait out inside a turn; longer ones end the turn with a message. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** How one model call (with its retries) ended. */
export type ModelCallOutcome =
  | { kind: 'ok'; reply: StreamedReply }
  | { kind: 'aborted'; partialText: string }
  | { kind: 'error'; error: ClassifiedError; partialText: string };

/**
 * Streams one chat completion. Transient failures are retried with backoff up to `maxRetries`
 * times, but only while nothing has been shown to the user for the current attempt. A stream
 * silent for `idleTimeoutMs` is aborted and counts as a timeout. `onAttempt` hears of every attempt.
 */
export async function callModel(params: {
  client: OpenAI;
  request: Omit<ChatCompletionCreateParamsStreaming, 'stream'>;
  signal: AbortSignal;
  clock: Clock;
  maxRetries: number;
  idleTimeoutMs: number;
  onText: (delta: string) => void;
  logger?: AgentLogger;
  /** Which endpoints refuse `stream_options` (default: the process-wide memory). */
  usageSupport?: StreamUsageSupport;
  /** Told how each attempt ended, the retried ones too. */
  onAttempt?: OnModelAttempt | undefined;
}): Promise<ModelCallOutcome> {
  const { client, signal, request } = params;
  for (let attempt = 0; ; attempt++) {
    let emitted = '';
    params.logger?.debug(
      { model: request.model, messages: request.messages.length, tools: request.tools?.length ?? 0, attempt },
      'model request',
    );
    try {
      const reply = await streamWithUsage({
        client,
        request,
        signal,
        clock: params.clock,
        idleTimeoutMs: params.idleTimeoutMs,
        onText: (delta) => {
          emitted += delta;
          params.onText(delta);
        },
        usageSupport: params.usageSupport ?? streamUsageSupport,
        ...(params.logger ? { logger: params.logger } : {}),
      });
      if (signal.aborted) {
        params.onAttempt?.({ outcome: 'aborted' });
        return { kind: 'aborted', partialText: emitted };
      }
      params.onAttempt?.({ outcome: 'ok' });
      return { kind: 'ok', reply };
    } catch (error) {
      if (signal.aborted) {
        params.onAttempt?.({ outcome: 'aborted' });
        return { kind: 'aborted', partialText: emitted };
      }
      const classified = classifyError({
        error,
        model: request.model,
        baseURL: client.baseURL,
        apiKey: client.apiKey ?? undefined,
        now: params.clock.now(),
      });
      params.onAttempt?.({ outcome: classified.reason });
      if (classified.reason === 'aborted') return { kind: 'aborted', partialText: emitted };
      const giveUp = giveUpReason({ classified, attempt, maxRetries: params.maxRetries, emitted });
      const retryAfterMs = classified.retryAfterMs;
      if (giveUp !== undefined) {
        params.logger?.warn({ err: error, reason: classified.reason, attempt }, 'model call failed');
        const userMessage = classified.userMessage + giveUp;
        return { kind: 'error', error: { ...classified, userMessage }, partialText: emitted };
      }
      params.logger?.warn({ err: error, reason: classified.reason, attempt, retryAfterMs }, 'model call failed; retrying');
      try {
        await sleepBeforeRetry({ attempt, retryAfterMs, clock: params.clock, signal });
      } catch {
        return { kind: 'aborted', partialText: '' };
      }
    }
  }
}

/** What one streamed request needs. */
interface AttemptParams {
  client: OpenAI;
  request: Omit<ChatCompletionCreateParamsStreaming, 'stream'>;
  signal: AbortSignal;
  clock: Clock;
  idleTimeoutMs: number;
  onText: (delta: string) => void;
}

/**
 * One attempt asking for the usage chunk (`stream_options.include_usage`) where the endpoint allows it. An endpoint
 * that refuses the parameter (400/422 naming it) gets the same request once more without it, and is remembered
 * so later calls leave it out; that is not an error (one info line).
 */
async function streamWithUsage(params: AttemptParams & { usageSupport: StreamUsageSupport; logger?: AgentLogger }): Promise<StreamedReply> {
  const { usageSupport, logger, ...attempt } = params;
  const { client } = params;
  if (!usageSupport.supported({ client })) return streamAttempt({ ...attempt, includeUsage: false });
  try {
    return await streamAttempt({ ...attempt, includeUsage: true });
  } catch (error) {
    if (params.signal.aborted || !isStreamOptionsRefusal({ error })) throw error;
    const line = { baseURL: client.baseURL, status: error instanceof OpenAI.APIError ? (error.status as number | undefined) : undefined };
    const message = 'the model endpoint refuses stream_options; asking again without it (token usage will not be reported)';
    if (logger?.info) logger.info(line, message);
    else logger?.debug(line, message);
    const reply = await streamAttempt({ ...attempt, includeUsage: false });
    // Remembered only once the request without it was answered: a 400 about something else that merely echoes the
    // request (pydantic-style errors quote the whole body, stream_options included) fails again and is not a refusal.
    usageSupport.markRefused({ client });
    return reply;
  }
}

/** One request and its stream, on its own AbortController so an idle stream can be cut off. */
async function streamAttempt(params: AttemptParams & { includeUsage: boolean }): Promise<StreamedReply> {
  const attempt = new AbortController();
  const forward = (): void => attempt.abort(params.signal.reason);
  params.signal.addEventListener('abort', forward, { once: true });
  if (params.signal.aborted) forward();
  let complete = false;
  try {
    const stream = await params.client.chat.completions.create(
      { ...params.request, stream: true, ...(params.includeUsage ? { stream_options: { include_usage: true } } : {}) },
      { signal: attempt.signal, maxRetries: 0 },
    );
    const reply = await collectStream({
      stream,
      onText: params.onText,
      idleTimeoutMs: params.idleTimeoutMs,
      clock: params.clock,
    });
    complete = true;
    return reply;
  } finally {
    params.signal.removeEventListener('abort', forward);
    // Closes the connection when the stream went idle or failed (a complete reply has nothing left to close).
    if (!complete) attempt.abort();
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
