/** Lower bound of a correction factor. */
export const CORRECTION_MIN = 0.5;
/** Upper bound (a tokenizer that splits finer than the 3.5 bytes-per-token ratio assumes: dense symbols, some scripts). */
export const CORRECTION_MAX = 4;
/**
 * Reports whose ratio to the estimate lies outside these are broken (a provider counting 0 or 1 token, a cumulative
 * or absurd figure) rather than a tokenizer difference, and are ignored: one of them must not make the agent compress
 * a conversation at an eighth of its threshold, or let it overflow the context.
 */
export const REPORT_RATIO_MIN = 0.2;
/** Upper bound of a believable report's ratio to the estimate. */
export const REPORT_RATIO_MAX = 10;
/** Weight of the newest observation in the smoothed factor. */
export const CORRECTION_WEIGHT = 0.3;
/** Estimates below this many tokens say too little about the ratio to move the factor. */
const MIN_ESTIMATE = 16;

/**
 * Per-model correction of token estimates: the smoothed ratio of the prompt tokens the endpoint reported to the
 * estimate of the same request, bounded to [CORRECTION_MIN, CORRECTION_MAX]. 1 until a report arrives.
 */
export class CorrectionFactors {
  private readonly factors = new Map<string, number>();

  /** Folds one call's report into the model's factor (ignored when either count is unusable or the ratio unbelievable). */
  observe(params: { model: string; estimate: number; reported: number | null }): void {
    const { model, estimate, reported } = params;
    if (reported === null || !Number.isFinite(reported) || reported <= 0 || !Number.isFinite(estimate) || estimate < MIN_ESTIMATE) return;
    const raw = reported / estimate;
    if (raw < REPORT_RATIO_MIN || raw > REPORT_RATIO_MAX) return;
    const ratio = clamp(raw);
    const previous = this.factors.get(model);
    this.factors.set(model, previous === undefined ? ratio : clamp(previous + CORRECTION_WEIGHT * (ratio - previous)));
  }

  /** The model's current factor (1 when nothing was reported yet). */
  factor(params: { model: string }): number {
    return this.factors.get(params.model) ?? 1;
  }
}

function clamp(value: number): number {
  return Math.min(CORRECTION_MAX, Math.max(CORRECTION_MIN, value));
}
