import { TokenCountCache } from './cache.js';
import { CorrectionFactors } from './correction.js';
import { encodingFor, encodingLoaded } from './encoding.js';
import { estimatePromptTokens, type PromptRequest } from './estimate.js';

/** A request's estimated prompt tokens. */
export interface TokenEstimate {
  /** Counted by the tokenizer (or ratio) alone. */
  readonly raw: number;
  /** `raw` times the model's correction factor from reported usage: the figure to decide on. */
  readonly tokens: number;
  /** True when the model's own tokenizer counted (or the model has none); false for the cheap estimate far from `within`. */
  readonly exact: boolean;
}

/** The correction key of a model's cheap (bytes-per-token) estimates, learned beside its exact one. */
function cheapKey(params: { model: string }): string {
  return `${params.model}\u0000ratio`;
}

/**
 * Token accounting for one gateway: estimates requests before they are sent and learns from the usage the
 * endpoint reports for them (per model). One instance is shared by the agent and the gateway's commands.
 */
export class TokenMeter {
  private readonly cache: TokenCountCache;
  private readonly corrections = new CorrectionFactors();
  private readonly tokenizer: TokenizerUse;

  constructor(params: { cache?: TokenCountCache; tokenizer?: TokenizerUse } = {}) {
    this.cache = params.cache ?? new TokenCountCache();
    this.tokenizer = params.tokenizer ?? 'near-limit';
  }

  /**
   * The request's estimated prompt tokens, raw and corrected. `within` is the limit the caller decides against (a
   * compression threshold, the context length): when even the request's UTF-8 bytes (at least one byte per token)
   * stay under it, the model's tokenizer is not needed — the cheap bytes-per-token estimate, corrected by what
   * reported usage taught it, is returned instead, and the tokenizer's tables are never loaded for a request far
   * from any limit. Without `within` the count is exact. A meter made with `tokenizer: 'never'` always answers from the
   * cheap estimate corrected by reported usage (`exact` false).
   */
  estimate(params: { request: PromptRequest; within?: number }): TokenEstimate {
    const { request, within } = params;
    const { model } = request;
    const encoding = encodingFor({ model });
    if (encoding !== 'ratio' && this.tokenizer === 'never') return this.cheap({ request });
    if (within !== undefined && encoding !== 'ratio') {
      const bound = estimatePromptTokens({ request, cache: this.cache, method: 'utf8_bytes' });
      if (bound * this.corrections.factor({ model }) < within) {
        // The ratio counts bytes too (3.5 a token), so it is always under the bound.
        const cheap = this.cheap({ request });
        // Capped by the bound, so a figure returned as "far from the limit" is always under it.
        return { ...cheap, tokens: Math.min(cheap.tokens, Math.floor(bound * this.corrections.factor({ model }))) };
      }
    }
    const raw = estimatePromptTokens({ request, cache: this.cache });
    return { raw, tokens: Math.round(raw * this.corrections.factor({ model })), exact: true };
  }

  /** The bytes-per-token estimate, corrected by what reported usage taught it about such estimates. */
  private cheap(params: { request: PromptRequest }): TokenEstimate {
    const { request } = params;
    const raw = estimatePromptTokens({ request, cache: this.cache, method: 'ratio' });
    return { raw, tokens: Math.round(raw * this.corrections.factor({ model: cheapKey({ model: request.model }) })), exact: false };
  }

  /**
   * Learns from the prompt tokens the endpoint reported for `request` (null: not reported; ignored): the cheap
   * estimate's factor always, the tokenizer's once its tables are loaded (loading them just to learn is not worth it).
   */
  observe(params: { request: PromptRequest; reportedPromptTokens: number | null }): void {
    const { request, reportedPromptTokens: reported } = params;
    if (reported === null) return;
    const { model } = request;
    const encoding = encodingFor({ model });
    if (encoding !== 'ratio') {
      const cheap = estimatePromptTokens({ request, cache: this.cache, method: 'ratio' });
      this.corrections.observe({ model: cheapKey({ model }), estimate: cheap, reported });
      if (!encodingLoaded({ encoding })) return;
    }
    const raw = estimatePromptTokens({ request, cache: this.cache });
    this.corrections.observe({ model, estimate: raw, reported });
  }

  /** The model's current correction factor (1 before any report). */
  factor(params: { model: string }): number {
    return this.corrections.factor(params);
  }
}

/**
 * Whether a meter may load the model's tokenizer: `near-limit` (the default: for a count without a limit, or a request
 * whose bytes pass the limit), or `never` (the cheap estimate corrected by reported usage, always).
 */
export type TokenizerUse = 'near-limit' | 'never';

/**
 * The process-wide meter of the gateway: its agents (rebuilt on each reload) keep what reported usage taught it. It
 * never loads a tokenizer: gpt-tokenizer's o200k tables add ~68 MB of RSS for the life of the process (cl100k ~40 MB),
 * more than the whole gateway holds at ready, and every long conversation used to bring them in (the first
 * compression, the first background review's transcript). Its decisions (when to compress, how much history fits)
 * take the bytes-per-token estimate times the ratio the endpoint's own reported prompt tokens taught it, which after
 * the first report of a model is as close as o200k is to a model that is not OpenAI's; a request the estimate let
 * past the context length comes back as the endpoint's overflow error, which compresses and retries.
 */
export const sharedTokenMeter = new TokenMeter({ tokenizer: 'never' });
