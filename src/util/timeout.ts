import type { Clock } from '../core/clock.js';

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
export async function withTimeout<T>(params: { clock: Clock; ms: number; run: (signal: AbortSignal) => Promise<T>; signal?: AbortSignal }): Promise<T> {
  const controller = new AbortController();
  const timer = new AbortController();
  // The caller's own signal (a gateway shutting down) aborts the run too.
  const outer = params.signal;
  const onOuter = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  params.clock.sleep(params.ms, timer.signal).then(
    () => controller.abort(new CheckTimeoutError({ ms: params.ms })),
    () => undefined, // cancelled: run finished first
  );
  try {
    return await params.run(controller.signal);
  } finally {
    timer.abort();
    outer?.removeEventListener('abort', onOuter);
  }
}
