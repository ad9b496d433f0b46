/** Most bytes of log lines kept while the log file refuses writes; older lines are dropped beyond it. */
export const maxBacklogBytes = 1024 * 1024;

/**
 * Log lines not yet in the file, oldest first, bounded in bytes: when full, the oldest whole lines are dropped
 * (and counted). The first line may be partly written already (a short write); it is never dropped, so the file
 * never holds half a line followed by another one.
 */
export class LogBacklog {
  private readonly maxBytes: number;
  private readonly queue: Buffer[] = [];
  private bytes = 0;
  private dropped = 0;
  private headStarted = false;

  /** `maxBytes` bounds what is kept (default 1 MiB). */
  constructor(params: { maxBytes?: number } = {}) {
    this.maxBytes = params.maxBytes ?? maxBacklogBytes;
  }

  /** Number of lines (or line rests) waiting. */
  get lines(): number {
    return this.queue.length;
  }

  /** True when the first waiting line has not been partly written. */
  get atLineStart(): boolean {
    return !this.headStarted;
  }

  /** Adds a line, dropping the oldest whole ones when over the bound. */
  push(params: { chunk: string }): void {
    const buffer = Buffer.from(params.chunk);
    this.queue.push(buffer);
    this.bytes += buffer.length;
    while (this.bytes > this.maxBytes && this.queue.length > 1) {
      // Keep a partly written first line: drop the one after it instead.
      const index = this.headStarted ? 1 : 0;
      const [gone] = this.queue.splice(index, 1);
      this.bytes -= gone?.length ?? 0;
      this.dropped += 1;
    }
  }

  /** What to write next (the rest of the first line), if anything. */
  peek(): Buffer | undefined {
    return this.queue[0];
  }

  /** Marks `bytes` of the first line written. */
  consume(params: { bytes: number }): void {
    const head = this.queue[0];
    if (head === undefined || params.bytes <= 0) return;
    this.bytes -= Math.min(params.bytes, head.length);
    if (params.bytes >= head.length) {
      this.queue.shift();
      this.headStarted = false;
    } else {
      this.queue[0] = head.subarray(params.bytes);
      this.headStarted = true;
    }
  }

  /** How many lines were dropped since the last call (and resets the count). */
  takeDropped(): number {
    const dropped = this.dropped;
    this.dropped = 0;
    return dropped;
  }
}
