import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import type { Rejection, RejectionLogger, RejectionReason, RejectionRecorder } from '../../core/rejection.js';

/** How long one window lasts: one line, then a count at its end. */
export const REJECTION_WINDOW_MS = 60_000;

/** Distinct sources remembered per window; beyond that, the rest are counted together per reason. */
const MAX_SOURCES = 1000;

/** What stands in for the source once too many sources are being counted. */
const OTHER_SOURCES = 'other sources';

interface Bucket {
  readonly source: string;
  readonly reason: RejectionReason;
  readonly message: string;
  readonly level: 'warn' | 'error';
  readonly logger: RejectionLogger;
  /** When the current window started. */
  since: number;
  /** Rejections in the current window not logged on their own. */
  count: number;
}

/**
 * Rate-limited log lines for rejected requests, so a flood of bad requests cannot flush the log: per source and
 * reason, the first rejection is logged, the ones after it within a minute are only counted, and the count is
 * logged when the minute is over (then the next minute is counted the same way, until a minute passes without
 * one). Memory is bounded: past MAX_SOURCES buckets, new sources share one bucket per reason.
 */
export class RejectionLog implements RejectionRecorder {
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly windowMs: number;
  /** Buckets in the order their windows end (a bucket whose window restarts moves to the end). */
  private readonly buckets = new Map<string, Bucket>();
  private readonly stopped = new AbortController();
  private ticking = false;

  constructor(params: { logger: Logger; clock: Clock; windowMs?: number }) {
    this.logger = params.logger;
    this.clock = params.clock;
    this.windowMs = params.windowMs ?? REJECTION_WINDOW_MS;
  }

  /** Records one rejected request: logs it when it is the first of its source and reason in this window. */
  reject(rejection: Rejection): void {
    const level = rejection.level ?? 'warn';
    const logger = rejection.logger ?? this.logger;
    const key = `${rejection.reason}\u0000${rejection.source}`;
    const bucket = this.buckets.get(key) ?? this.buckets.get(`${rejection.reason}\u0000${OTHER_SOURCES}`);
    if (bucket !== undefined) {
      bucket.count += 1;
      return;
    }
    const crowded = this.buckets.size >= MAX_SOURCES;
    const source = crowded ? OTHER_SOURCES : rejection.source;
    this.buckets.set(`${rejection.reason}\u0000${source}`, { source, reason: rejection.reason, message: rejection.message, level, logger, since: this.clock.now(), count: 0 });
    logger[level]({ ...rejection.fields, source: rejection.source, reason: rejection.reason }, rejection.message);
    this.tick();
  }

  /** Logs the count of every window that is over; a bucket with nothing counted is dropped. */
  flush(): void {
    const now = this.clock.now();
    for (const [key, bucket] of [...this.buckets]) {
      if (now - bucket.since < this.windowMs) break;
      this.buckets.delete(key);
      if (bucket.count === 0) continue;
      this.summarize({ bucket });
      bucket.count = 0;
      bucket.since = now;
      this.buckets.set(key, bucket);
    }
  }

  /** Logs what is still counted and stops the timer. */
  close(): void {
    this.stopped.abort();
    for (const bucket of this.buckets.values()) if (bucket.count > 0) this.summarize({ bucket });
    this.buckets.clear();
  }

  private summarize(params: { bucket: Bucket }): void {
    const { bucket } = params;
    bucket.logger[bucket.level](
      { source: bucket.source, reason: bucket.reason, suppressed: bucket.count, windowSeconds: Math.round(this.windowMs / 1000) },
      `${bucket.message} (${bucket.count} more like it from this source in the last minute, not logged one by one)`,
    );
  }

  /** Wakes at the end of the earliest window while there are buckets; one timer at most. */
  private tick(): void {
    if (this.ticking || this.stopped.signal.aborted) return;
    this.ticking = true;
    void (async () => {
      try {
        for (let first = this.buckets.values().next(); !first.done; first = this.buckets.values().next()) {
          await this.clock.sleep(first.value.since + this.windowMs - this.clock.now(), this.stopped.signal);
          this.flush();
        }
      } catch {
        // Closed.
      } finally {
        this.ticking = false;
      }
    })();
  }
}
