import type { Clock } from '../core/clock.js';

/**
 * Calls `tick` at anchor + k * everyMs (k = 1, 2, ...; anchor = now at the start) until `signal` aborts, so runs
 * never drift. Ticks never overlap: a tick that is still running when its successors fall due makes those
 * successors be skipped (reported to `onSkipped` with their count), and the next tick is the next grid time after it
 * ended. Resolves when aborted; a throwing tick is reported to `onError` and the loop goes on.
 */
export async function runOnGrid(params: {
  everyMs: number;
  clock: Clock;
  signal: AbortSignal;
  tick: (params: { scheduledFor: number }) => Promise<void>;
  onError: (params: { error: unknown }) => void;
  onSkipped?: (params: { count: number; scheduledFor: number }) => void;
}): Promise<void> {
  const { everyMs, clock, signal } = params;
  const anchor = clock.now();
  let k = 1;
  while (!signal.aborted) {
    const scheduledFor = anchor + k * everyMs;
    try {
      await clock.sleep(Math.max(0, scheduledFor - clock.now()), signal);
    } catch {
      return;
    }
    try {
      await params.tick({ scheduledFor });
    } catch (error) {
      if (signal.aborted) return;
      params.onError({ error });
    }
    const behind = Math.floor((clock.now() - anchor) / everyMs);
    const next = Math.max(k + 1, behind + 1);
    if (next > k + 1) params.onSkipped?.({ count: next - k - 1, scheduledFor: anchor + (k + 1) * everyMs });
    k = next;
  }
}
