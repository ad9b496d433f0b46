/** Bits in a GramSet's prefilter (2^22 bits = 512 KiB): few false hits for tens of thousands of grams. */
const FILTER_BITS = 22;
const FILTER_MASK = (1 << FILTER_BITS) - 1;
/** Multiplier of the rolling hash (the FNV prime). */
const BASE = 0x01000193;

/**
 * A set of equally long strings that a text is scanned against at every position in linear time: a rolling hash
 * over the text tests a bit filter, and only a filter hit is checked against the set itself.
 */
export class GramSet {
  /** Length of every string in the set. */
  readonly length: number;
  private readonly grams: ReadonlySet<string>;
  private readonly filter = new Uint32Array(1 << (FILTER_BITS - 5));
  /** BASE^(length-1), to take the outgoing character out of the rolling hash. */
  private readonly outgoing: number;

  /** `grams` must all be `length` characters long. */
  constructor(params: { grams: ReadonlySet<string>; length: number }) {
    this.grams = params.grams;
    this.length = params.length;
    let power = 1;
    for (let i = 1; i < params.length; i++) power = Math.imul(power, BASE);
    this.outgoing = power;
    for (const gram of params.grams) {
      let hash = 0;
      for (let i = 0; i < gram.length; i++) hash = (Math.imul(hash, BASE) + gram.charCodeAt(i)) | 0;
      const slot = mix(hash);
      this.filter[slot >>> 5] = (this.filter[slot >>> 5] ?? 0) | (1 << (slot & 31));
    }
  }

  /** Number of strings in the set. */
  get size(): number {
    return this.grams.size;
  }

  /** Calls `onHit` with every index of `text` where a string of the set starts, in order. */
  scan(params: { text: string; onHit: (start: number) => void }): void {
    const { text, onHit } = params;
    const n = this.length;
    if (this.grams.size === 0 || text.length < n) return;
    let hash = 0;
    for (let i = 0; i < text.length; i++) {
      if (i >= n) hash = (hash - Math.imul(text.charCodeAt(i - n), this.outgoing)) | 0;
      hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
      if (i < n - 1) continue;
      const slot = mix(hash);
      if (((this.filter[slot >>> 5] ?? 0) & (1 << (slot & 31))) === 0) continue;
      const start = i - n + 1;
      if (this.grams.has(text.slice(start, start + n))) onHit(start);
    }
  }
}

/** Filter slot of a hash. */
function mix(hash: number): number {
  return (hash ^ (hash >>> 13) ^ (hash >>> 22)) & FILTER_MASK;
}
