/** Exponential backoff with full jitter: a random delay in [base*2^attempt/2, min(cap, base*2^attempt)]. */
export function backoffDelay(params: { attempt: number; baseMs: number; maxMs: number; random?: () => number }): number {
  const random = params.random ?? Math.random;
  const ceiling = Math.min(params.maxMs, params.baseMs * 2 ** Math.max(0, params.attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
