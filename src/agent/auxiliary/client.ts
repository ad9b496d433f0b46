import OpenAI from 'openai';
import type { GatewayConfig } from '../../config/schema.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { classifyError } from '../classify.js';
import type { OnModelAttempt } from '../errors.js';

/** One request to the auxiliary model: a system and a user message, answered once (no streaming, no tools). */
export interface AuxiliaryRequest {
  readonly system: string;
  readonly user: string;
  /** The turn's signal: an interrupted turn cancels the call. */
  readonly signal: AbortSignal;
  /** Most tokens of answer (the config's `max_tokens` when not given). */
  readonly maxTokens?: number;
  /** Told how the request ended: `ok` (the model answered), or why it failed (metrics). */
  readonly onAttempt?: OnModelAttempt | undefined;
  /** Images (data URLs) the model is shown after the user text: a model that sees describes or reads them. */
  readonly images?: readonly string[] | undefined;
  /** The model asked instead of the route's (the main model standing in for the auxiliary one: a session's /model choice). */
  readonly model?: string | undefined;
}

/** Answers one request with the auxiliary model's text; throws AuxiliaryError (or the SDK's error) when it cannot. */
export type AuxiliaryComplete = (request: AuxiliaryRequest) => Promise<string>;

/** The auxiliary model answered, but with nothing usable. */
export class AuxiliaryError extends Error {
  override readonly name = 'AuxiliaryError';
  /** The model asked. */
  readonly model: string;

  constructor(params: { model: string; detail: string }) {
    super(`auxiliary model ${params.model}: ${params.detail}`);
    this.model = params.model;
  }
}

/** Which endpoint and model side work uses, with `model`'s base_url and api_key where auxiliary.model leaves them out. */
export interface AuxiliaryRoute {
  readonly name: string;
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly requestTimeoutMs: number;
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
}

/** The auxiliary route of a config, or undefined when `auxiliary.model` is not set. */
export function auxiliaryRoute(params: { config: Pick<GatewayConfig, 'model' | 'auxiliary'> }): AuxiliaryRoute | undefined {
  const aux = params.config.auxiliary.model;
  if (aux === undefined) return undefined;
  return {
    name: aux.name,
    baseURL: aux.base_url ?? params.config.model.base_url,
    apiKey: aux.api_key ?? params.config.model.api_key ?? params.config.model.api_keys[0],
    requestTimeoutMs: aux.request_timeout,
    temperature: aux.temperature,
    maxTokens: aux.max_tokens,
  };
}

/**
 * A `complete` function for the configured auxiliary model (condensing search results now; compression summaries
 * and background reviews later), or undefined when none is configured. One non-streaming chat.completions call per
 * request through the openai SDK, no SDK retries (a caller falls back instead), the route's request timeout.
 */
export function auxiliaryClient(params: {
  config: Pick<GatewayConfig, 'model' | 'auxiliary'>;
  /** The time a failure's Retry-After date is read against (the system's when absent). */
  clock?: Clock;
}): AuxiliaryComplete | undefined {
  const route = auxiliaryRoute(params);
  if (route === undefined) return undefined;
  const clock = params.clock ?? systemClock;
  const client = new OpenAI({ apiKey: route.apiKey ?? 'not-needed', baseURL: route.baseURL, maxRetries: 0, timeout: route.requestTimeoutMs });
  return async (request) => {
    const model = request.model ?? route.name;
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await createCompletion({ client, route, request });
    } catch (error) {
      const outcome = request.signal.aborted ? 'aborted' : classifyError({ error, model, baseURL: route.baseURL, ...(route.apiKey === undefined ? {} : { apiKey: route.apiKey }), now: clock.now() }).reason;
      request.onAttempt?.({ outcome });
      throw error;
    }
    // The model answered: an `ok` call, even when its answer turns out empty (a call, not a failed request).
    request.onAttempt?.({ outcome: 'ok' });
    const text = completion.choices[0]?.message.content?.trim() ?? '';
    if (text === '') throw new AuxiliaryError({ model, detail: 'the answer was empty' });
    return text;
  };
}

/** The user message's content: its text, then an image part per image (a vision request). */
function userContent(params: { request: AuxiliaryRequest }): string | OpenAI.Chat.Completions.ChatCompletionContentPart[] {
  const { request } = params;
  const images = request.images ?? [];
  if (images.length === 0) return request.user;
  return [{ type: 'text', text: request.user }, ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))];
}

/** The one non-streaming request of `auxiliaryClient`. */
function createCompletion(params: { client: OpenAI; route: AuxiliaryRoute; request: AuxiliaryRequest }): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const { client, route, request } = params;
  const maxTokens = request.maxTokens ?? route.maxTokens;
  return client.chat.completions.create(
    {
      model: request.model ?? route.name,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: userContent({ request }) },
      ],
      stream: false,
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
      ...(route.temperature !== undefined ? { temperature: route.temperature } : {}),
    },
    { signal: request.signal, timeout: route.requestTimeoutMs },
  );
}

/** A `complete` function on the main model (`model`: its endpoint, first key, timeout and temperature): side work where no auxiliary model is set. */
export function mainModelClient(params: { config: Pick<GatewayConfig, 'model'>; clock?: Clock }): AuxiliaryComplete {
  const { model } = params.config;
  const client = auxiliaryClient({
    config: {
      model,
      auxiliary: {
        model: { name: model.name, base_url: model.base_url, api_key: model.api_key ?? model.api_keys[0], request_timeout: model.request_timeout, temperature: model.temperature, max_tokens: undefined },
      },
    },
    ...(params.clock === undefined ? {} : { clock: params.clock }),
  });
  if (client === undefined) throw new Error('the main model gives no client');
  return client;
}
