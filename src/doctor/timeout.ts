import type { Clock } from '../util/clock.js';

/** The reason a doctor check's signal aborts with when its time is up. */
export class CheckTimeoutError extends Error {
  override readonly name = 'CheckTimeoutError';
  /** The limit that passed. */
  readonly ms: number;

  constructor(params: { ms: number }) {
    super(`no answer within ${formatSeconds(params.ms)}`);
    this.ms = params.ms;
  }
}

/** "3s", "1.5s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/**
 * Runs `run` with a signal that aborts (reason: CheckTimeoutError) after `ms` on `clock`, like
 * AbortSignal.timeout but with a Clock; the timer is cancelled as soon as `run` settles.
 */
export async function withTimeout<T>(params: { clock: Clock; ms: number; run: (signal: AbortSignal) => Promise<T> }): Promise<T> {
  const controller = new AbortController();
  const timer = new AbortController();
  params.clock.sleep(params.ms, timer.signal).then(
    () => controller.abort(new CheckTimeoutError({ ms: params.ms })),
    () => undefined, // cancelled: run finished first
  );
  try {
    return await params.run(controller.signal);
  } finally {
    timer.abort();
  }
}
