import { withTimeout } from '../../util/timeout.js';
import type { Clock } from '../../core/clock.js';

/** What the endpoint's GET /models gave: its model ids, or why there are none. */
export type ModelListing = { readonly kind: 'listed'; readonly names: readonly string[] } | { readonly kind: 'unavailable'; readonly why: string };

/** Longest wait for GET /models while a /model command waits (the command answers without the list after it). */
export const MODEL_LIST_TIMEOUT_MS = 1_500;
/** How long a listing is reused. */
const LISTED_TTL_MS = 10 * 60_000;
/** How long a failed listing is reused before the endpoint is asked again. */
const FAILED_TTL_MS = 60_000;
/** Most ids kept from a listing (OpenRouter lists hundreds; /model shows only the first few but checks names against all). */
const MAX_NAMES = 5_000;

/** The model endpoint's GET /models, cached and bounded: what `/model` lists and checks a name against. */
export class ModelList {
  private readonly params: { baseUrl: string; apiKey: string | undefined; clock: Clock; timeoutMs: number; fetch: typeof fetch };
  private cached: { listing: ModelListing; until: number } | undefined;
  private inFlight: Promise<ModelListing> | undefined;

  constructor(params: { baseUrl: string; apiKey?: string | undefined; clock: Clock; timeoutMs?: number; fetch?: typeof fetch }) {
    this.params = { baseUrl: params.baseUrl, apiKey: params.apiKey, clock: params.clock, timeoutMs: params.timeoutMs ?? MODEL_LIST_TIMEOUT_MS, fetch: params.fetch ?? fetch };
  }

  /** The listing: cached, else one GET /models (shared by concurrent callers) that never takes longer than the timeout. Never rejects. */
  async list(params: { signal?: AbortSignal } = {}): Promise<ModelListing> {
    const { clock } = this.params;
    if (this.cached !== undefined && clock.now() < this.cached.until) return this.cached.listing;
    this.inFlight ??= this.fetchOnce({ ...params }).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetchOnce(params: { signal?: AbortSignal }): Promise<ModelListing> {
    const { clock, apiKey } = this.params;
    const url = `${this.params.baseUrl.replace(/\/+$/, '')}/models`;
    const listing = await withTimeout({
      clock,
      ms: this.params.timeoutMs,
      ...(params.signal ? { signal: params.signal } : {}),
      run: async (signal): Promise<ModelListing> => {
        try {
          const response = await this.params.fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal });
          if (!response.ok) return { kind: 'unavailable', why: `GET /models answered ${response.status}` };
          return namesOf({ body: await response.json() });
        } catch (error) {
          return { kind: 'unavailable', why: signal.aborted ? 'GET /models did not answer in time' : `GET /models failed (${(error as Error).message})` };
        }
      },
    });
    this.cached = { listing, until: clock.now() + (listing.kind === 'listed' ? LISTED_TTL_MS : FAILED_TTL_MS) };
    return listing;
  }
}

/** The ids of an OpenAI-style model list (`{data: [{id}]}`), sorted, at most MAX_NAMES. */
function namesOf(params: { body: unknown }): ModelListing {
  const data = typeof params.body === 'object' && params.body !== null ? (params.body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return { kind: 'unavailable', why: 'GET /models did not answer with a model list' };
  const ids = data.map((item: unknown) => (typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined)).filter((id): id is string => typeof id === 'string' && id !== '');
  if (ids.length === 0) return { kind: 'unavailable', why: 'GET /models listed no models' };
  return { kind: 'listed', names: [...new Set(ids)].sort().slice(0, MAX_NAMES) };
}
