import type { Clock } from '../core/clock.js';

/** First backoff step. */
export const BACKOFF_BASE_MS = 1_000;
/** Largest backoff step. */
export const BACKOFF_CAP_MS = 30_000;

/**
 * Delay before retry number `attempt` (0 for the first retry): "full jitter", a random time in
 * [0, min(cap, base·2^attempt)), but never shorter than the provider's `retryAfterMs`.
 */
export function backoffDelayMs(params: {
  attempt: number;
  retryAfterMs?: number;
  random?: () => number;
  baseMs?: number;
  capMs?: number;
}): number {
  const base = params.baseMs ?? BACKOFF_BASE_MS;
  const cap = params.capMs ?? BACKOFF_CAP_MS;
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, params.attempt));
  const jittered = Math.floor((params.random ?? Math.random)() * ceiling);
  return Math.max(jittered, params.retryAfterMs ?? 0);
}

/** Sleeps for the backoff delay on `clock`; rejects with the signal's reason when aborted. Returns the delay. */
export async function sleepBeforeRetry(params: {
  attempt: number;
  retryAfterMs?: number;
  clock: Clock;
  signal: AbortSignal;
  random?: () => number;
}): Promise<number> {
  const delay = backoffDelayMs({ attempt: params.attempt, retryAfterMs: params.retryAfterMs, random: params.random });
  await params.clock.sleep(delay, params.signal);
  return delay;
}
