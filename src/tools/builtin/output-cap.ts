/** Collects a byte stream but keeps only its first and last parts once it exceeds `maxBytes`. */
export class OutputCap {
  private readonly headMax: number;
  private readonly tailMax: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes pushed in total. */
  total = 0;

  constructor(params: { maxBytes: number }) {
    const max = Math.max(2, Math.floor(params.maxBytes));
    this.headMax = Math.ceil(max / 2);
    this.tailMax = max - this.headMax;
  }

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.headMax - this.headBytes;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > this.tailMax) {
      const first = this.tail[0];
      if (!first) break;
      const excess = this.tailBytes - this.tailMax;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  /** True when some bytes were dropped. */
  get truncated(): boolean {
    return this.total > this.headBytes + this.tailBytes;
  }

  /** The kept text, with a note in the middle when bytes were dropped. */
  render(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    const omitted = this.total - this.headBytes - this.tailBytes;
    return (
      `${head}\n[output truncated: ${omitted} of ${this.total} bytes omitted; ` +
      `showing the first ${this.headBytes} and last ${this.tailBytes} bytes]\n${tail}`
    );
  }
}
