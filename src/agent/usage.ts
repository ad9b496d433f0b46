import OpenAI from 'openai';

/** Token counts of one model call as the endpoint reported them (null: not reported). */
export interface ModelUsage {
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  /** Prompt tokens served from the provider's prefix cache (`prompt_tokens_details.cached_tokens`). */
  readonly cachedTokens: number | null;
}

/** What `AgentRunParams.onUsage` receives for each model call. */
export interface ModelCallReport extends ModelUsage {
  /** The model the request named. */
  readonly model: string;
}

/** Usage when the endpoint sent none. */
export const NO_USAGE: ModelUsage = { promptTokens: null, completionTokens: null, cachedTokens: null };

/** A count from an untrusted usage object, or null. */
function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/**
 * Reads a chat completion's `usage` object (the final chunk of a stream asked for with `include_usage`).
 * Cached tokens come from `prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`.
 */
export function parseUsage(params: { usage: unknown }): ModelUsage | undefined {
  const { usage } = params;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const details = record['prompt_tokens_details'];
  const detailed = typeof details === 'object' && details !== null ? count((details as Record<string, unknown>)['cached_tokens']) : null;
  return {
    promptTokens: count(record['prompt_tokens']),
    completionTokens: count(record['completion_tokens']),
    cachedTokens: detailed ?? count(record['prompt_cache_hit_tokens']),
  };
}

/**
 * Which clients' endpoints refused `stream_options`, so a call there is not refused twice. Keyed by the client
 * (one per configured base URL; a config reload builds a new one, which then learns it again with one retry).
 * One shared instance serves the process (`streamUsageSupport`).
 */
export class StreamUsageSupport {
  private readonly refused = new WeakSet<OpenAI>();

  /** True unless the endpoint of `client` refused `stream_options` before. */
  supported(params: { client: OpenAI }): boolean {
    return !this.refused.has(params.client);
  }

  /** Remembers that the endpoint of `client` refuses `stream_options`. */
  markRefused(params: { client: OpenAI }): void {
    this.refused.add(params.client);
  }
}

/** The process-wide memory of endpoints that refuse `stream_options`. */
export const streamUsageSupport = new StreamUsageSupport();

/** True for a 400/422 whose error names `stream_options` / `include_usage` (a strict server refusing the parameter). */
export function isStreamOptionsRefusal(params: { error: unknown }): boolean {
  const { error } = params;
  if (!(error instanceof OpenAI.APIError) || (error.status !== 400 && error.status !== 422)) return false;
  if (error.param === 'stream_options' || error.param === 'stream_options.include_usage') return true;
  const body = typeof error.error === 'object' && error.error !== null ? JSON.stringify(error.error) : '';
  return /stream_options|include_usage/i.test(`${error.message} ${body}`);
}
