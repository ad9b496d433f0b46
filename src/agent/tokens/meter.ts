import { TokenCountCache } from './cache.js';
import { CorrectionFactors } from './correction.js';
import { estimatePromptTokens, type PromptRequest } from './estimate.js';

/** A request's estimated prompt tokens. */
export interface TokenEstimate {
  /** Counted by the tokenizer (or ratio) alone. */
  readonly raw: number;
  /** `raw` times the model's correction factor from reported usage: the figure to decide on. */
  readonly tokens: number;
}

/**
 * Token accounting for one gateway: estimates requests before they are sent and learns from the usage the
 * endpoint reports for them (per model). One instance is shared by the agent and the gateway's commands.
 */
export class TokenMeter {
  private readonly cache: TokenCountCache;
  private readonly corrections = new CorrectionFactors();

  constructor(params: { cache?: TokenCountCache } = {}) {
    this.cache = params.cache ?? new TokenCountCache();
  }

  /** The request's estimated prompt tokens, raw and corrected. */
  estimate(params: { request: PromptRequest }): TokenEstimate {
    const raw = estimatePromptTokens({ request: params.request, cache: this.cache });
    return { raw, tokens: Math.round(raw * this.corrections.factor({ model: params.request.model })) };
  }

  /** Learns from the prompt tokens the endpoint reported for `request` (null: not reported; ignored). */
  observe(params: { request: PromptRequest; reportedPromptTokens: number | null }): void {
    if (params.reportedPromptTokens === null) return;
    const raw = estimatePromptTokens({ request: params.request, cache: this.cache });
    this.corrections.observe({ model: params.request.model, estimate: raw, reported: params.reportedPromptTokens });
  }

  /** The model's current correction factor (1 before any report). */
  factor(params: { model: string }): number {
    return this.corrections.factor(params);
  }
}

/** The process-wide meter: the gateway's agents (rebuilt on each reload) keep what reported usage taught it. */
export const sharedTokenMeter = new TokenMeter();
