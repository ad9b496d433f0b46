import type { Clock } from '../../src/core/clock.js';

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/** A manual clock: time moves only when the test calls `advance`. */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private sleepers: Sleeper[] = [];

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper: Sleeper = { at: this.current + Math.max(0, ms), seq: this.seq++, resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Number of pending sleeps. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Moves time forward by `ms`, waking sleepers in time order and letting their continuations run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      this.sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.sleepers[0];
      if (!next || next.at > target) break;
      this.sleepers.shift();
      this.current = Math.max(this.current, next.at);
      next.resolve();
    }
    this.current = target;
    await flushMicrotasks();
  }
}

/** Lets pending promise continuations (and one macrotask turn) run. */
export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
