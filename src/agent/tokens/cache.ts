import { countText, type CountMethod, type ExactEncoding } from './encoding.js';

/** Texts remembered per encoding before the oldest are forgotten (a long history is a few hundred texts). */
export const TOKEN_CACHE_ENTRIES = 4096;

/** Texts shorter than this are counted directly: hashing them costs about what counting does. */
const MIN_CACHED_CHARS = 64;

/**
 * Token counts of texts already seen, per encoding: a session's history is mostly the same from one model call
 * to the next, so each message is counted once. Bounded (least recently used texts are dropped).
 */
export class TokenCountCache {
  private readonly maxEntries: number;
  private readonly counts = new Map<ExactEncoding, Map<string, number>>();

  constructor(params: { maxEntries?: number } = {}) {
    this.maxEntries = params.maxEntries ?? TOKEN_CACHE_ENTRIES;
  }

  /** Tokens of `text` in `encoding`, from the cache when it was counted before. */
  count(params: { text: string; encoding: CountMethod }): number {
    const { text, encoding } = params;
    // The ratio and the byte bound cost less than a lookup.
    if (encoding === 'ratio' || encoding === 'utf8_bytes' || text.length < MIN_CACHED_CHARS) return countText({ text, encoding });
    let counts = this.counts.get(encoding);
    if (counts === undefined) {
      counts = new Map();
      this.counts.set(encoding, counts);
    }
    const known = counts.get(text);
    if (known !== undefined) {
      // Re-inserted so the Map's order stays least-recently-used first.
      counts.delete(text);
      counts.set(text, known);
      return known;
    }
    const counted = countText({ text, encoding });
    counts.set(text, counted);
    if (counts.size > this.maxEntries) {
      const oldest = counts.keys().next();
      if (oldest.done !== true) counts.delete(oldest.value);
    }
    return counted;
  }

  /** How many texts are remembered (all encodings). */
  get size(): number {
    let total = 0;
    for (const counts of this.counts.values()) total += counts.size;
    return total;
  }
}
