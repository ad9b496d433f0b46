import type { Clock } from '../../core/clock.js';

/** Why background work was stopped: a new message in its session, the gateway stopping, or its time cap. */
export type BackgroundAbortReason = 'new_message' | 'shutdown' | 'timeout';

/** The reason carried by an aborted background signal. */
export class BackgroundAbort extends Error {
  override readonly name = 'BackgroundAbort';
  /** Why it was stopped. */
  readonly reason: BackgroundAbortReason;

  constructor(params: { reason: BackgroundAbortReason }) {
    super(`background work stopped: ${params.reason}`);
    this.reason = params.reason;
  }
}

/** Why `start` did not start the work. */
export type BackgroundStart = 'started' | 'session_busy' | 'limit' | 'stopped';

/** How long `stop` waits for aborted work to settle. */
export const STOP_GRACE_MS = 5000;

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/**
 * Work the gateway starts itself, outside any turn (background reviews now, scheduled jobs later): at most one piece
 * per session key, at most `maxConcurrent` in all, each with its own AbortController. It never holds a mailbox.
 */
export class BackgroundWork {
  private readonly running = new Map<string, Running>();
  /** Every piece not settled yet, aborted ones included (stop waits for them before the store closes). */
  private readonly unsettled = new Set<Promise<void>>();
  private readonly maxConcurrent: number;
  private readonly clock: Clock;
  private readonly onLate: ((params: { pieces: number }) => void) | undefined;
  private stopped = false;

  constructor(params: {
    /** Most pieces of work running at once across sessions. */
    maxConcurrent: number;
    clock: Clock;
    /** Called when `stop` gave up waiting for work that had not settled (one log line). */
    onLate?: (params: { pieces: number }) => void;
  }) {
    this.maxConcurrent = params.maxConcurrent;
    this.clock = params.clock;
    this.onLate = params.onLate;
  }

  /** How many pieces of work run now. */
  get size(): number {
    return this.running.size;
  }

  /** Whether the session has work running. */
  has(params: { key: string }): boolean {
    return this.running.has(params.key);
  }

  /**
   * Starts `run` for the session unless it already has work, the limit is reached (aborted work still settling
   * counts), or `stop` was called. Its signal aborts with reason 'timeout' after `timeoutMs`. `run` must settle when
   * its signal aborts; a rejection is swallowed (the work logs its own failures).
   */
  start(params: { key: string; timeoutMs: number; run: (signal: AbortSignal) => Promise<void> }): BackgroundStart {
    if (this.stopped) return 'stopped';
    if (this.running.has(params.key)) return 'session_busy';
    if (this.running.size >= this.maxConcurrent || this.unsettled.size >= this.maxConcurrent) return 'limit';
    const controller = new AbortController();
    const timer = new AbortController();
    this.clock.sleep(params.timeoutMs, timer.signal).then(
      () => controller.abort(new BackgroundAbort({ reason: 'timeout' })),
      () => undefined,
    );
    // Called at once (not on a later tick), so an abort right after `start` reaches work that is listening.
    const done = (async (): Promise<void> => params.run(controller.signal))()
      .catch(() => undefined)
      .finally(() => {
        timer.abort();
        if (this.running.get(params.key)?.controller === controller) this.running.delete(params.key);
        this.unsettled.delete(done);
      });
    this.unsettled.add(done);
    this.running.set(params.key, { controller, done });
    return 'started';
  }

  /** Aborts the session's work, if any; returns whether there was some. It drops out of the map at once. */
  abort(params: { key: string; reason: BackgroundAbortReason }): boolean {
    const running = this.running.get(params.key);
    if (running === undefined) return false;
    this.running.delete(params.key);
    running.controller.abort(new BackgroundAbort({ reason: params.reason }));
    return true;
  }

  /** Aborts everything, refuses new work, and resolves once all of it settled, or after `graceMs` (work that ignores its signal must not hold a shutdown). */
  async stop(params: { graceMs: number } = { graceMs: STOP_GRACE_MS }): Promise<void> {
    this.stopped = true;
    const all = [...this.running.values()];
    this.running.clear();
    for (const r of all) r.controller.abort(new BackgroundAbort({ reason: 'shutdown' }));
    const grace = new AbortController();
    const waited = this.clock.sleep(params.graceMs, grace.signal).then(
      () => 'late' as const,
      () => 'settled' as const,
    );
    const outcome = await Promise.race([Promise.allSettled([...this.unsettled]).then(() => 'settled' as const), waited]);
    grace.abort();
    if (outcome === 'late') this.onLate?.({ pieces: this.unsettled.size });
  }
}
