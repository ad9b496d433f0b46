import type { Clock } from '../../core/clock.js';
import { withTimeout } from '../../util/timeout.js';
import { DEFAULT_CONTEXT_LENGTH, knownContextLength } from './known-models.js';
import { contextLengthFromModels } from './models-metadata.js';

/** Where the context length in force came from. */
export type ContextLengthSource = 'config' | 'endpoint' | 'default';

/** The model's context length and where it came from. */
export interface ContextLength {
  readonly tokens: number;
  readonly source: ContextLengthSource;
}

/** How long GET /models may take before the default is used. */
export const CONTEXT_LENGTH_TIMEOUT_MS = 5_000;

/** What resolveContextLength needs. */
export interface ResolveContextLengthParams {
  readonly model: {
    readonly name: string;
    readonly base_url: string;
    readonly api_key?: string | undefined;
    /** The pool's keys: the first is sent when `api_key` is unset. */
    readonly api_keys?: readonly string[] | undefined;
    readonly context_length?: number | undefined;
  };
  readonly clock: Clock;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** For tests; default: the global fetch. */
  readonly fetch?: typeof fetch;
  /** Receives the endpoint's GET /models answer when it gave one (other models' figures are read from it). */
  readonly onModels?: (body: unknown) => void;
}

/** The context length without asking the endpoint: config, else the known-models table, else the default. */
export function staticContextLength(params: { model: ResolveContextLengthParams['model'] }): ContextLength {
  const { model } = params;
  if (model.context_length !== undefined) return { tokens: model.context_length, source: 'config' };
  return { tokens: knownContextLength({ model: model.name }) ?? DEFAULT_CONTEXT_LENGTH, source: 'default' };
}

/**
 * The model's context length: `model.context_length` from config, else the endpoint's GET /models metadata,
 * else the known-models table or 32,768. Never throws; a slow, failing or silent endpoint gives the default.
 */
export async function resolveContextLength(params: ResolveContextLengthParams): Promise<ContextLength> {
  const fallback = staticContextLength({ model: params.model });
  if (fallback.source === 'config' || params.signal?.aborted) return fallback;
  const url = `${params.model.base_url.replace(/\/+$/, '')}/models`;
  const key = params.model.api_key ?? params.model.api_keys?.[0];
  const get = params.fetch ?? fetch;
  return withTimeout({
    clock: params.clock,
    ms: params.timeoutMs ?? CONTEXT_LENGTH_TIMEOUT_MS,
    ...(params.signal ? { signal: params.signal } : {}),
    run: async (signal) => {
      try {
        const response = await get(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal });
        if (!response.ok) return fallback;
        const body: unknown = await response.json();
        params.onModels?.(body);
        const tokens = contextLengthFromModels({ body, model: params.model.name });
        return tokens === undefined ? fallback : { tokens, source: 'endpoint' };
      } catch {
        return fallback;
      }
    },
  });
}

/** One line for people, e.g. "128,000 tokens (from the endpoint's /models)". */
export function describeContextLength(params: { length: ContextLength }): string {
  const { length } = params;
  const from = { config: 'from model.context_length in the config', endpoint: "from the endpoint's /models", default: 'a default: set model.context_length to change it' }[length.source];
  return `${length.tokens.toLocaleString('en-US')} tokens (${from})`;
}
