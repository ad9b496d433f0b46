import { scanFile, type FileScan } from '../secrets/file-scan.js';
import { SECRET_MASK, SecretMatcher } from '../secrets/matcher.js';

/** What replaces a secret. */
export const REDACTED = SECRET_MASK;

/** Secrets shorter than this are ignored: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4;

/** Objects nested deeper than this are replaced by a marker instead of being copied. */
const MAX_DEPTH = 32;

/**
 * The profile's secrets, defined once: replaces them with "***" in text and in (copies of) structured values,
 * finds them in files and tells a streamed text how much of itself may be shown. Matching is by content
 * (see secrets/matcher.ts): raw, JSON-escaped, spread out by separators, reversed, base64/hex/percent-encoded,
 * and partial copies of 8 or more consecutive letters and digits of a secret.
 */
/** Texts remembered by Redactor.scrub: bounded in count and size (at most ~1 MB of text kept). */
const SCRUB_CACHE_ENTRIES = 64;
const SCRUB_CACHE_MIN_CHARS = 256;
const SCRUB_CACHE_MAX_CHARS = 16_384;

export class Redactor {
  /** The secrets this redactor hides (those long enough to be matched), in the order given. */
  get secrets(): readonly string[] {
    return this.known;
  }
  private known: readonly string[] = [];
  private matcher = new SecretMatcher({ secrets: [] });
  /**
   * Recent short texts and their scrubbed form: the same texts are scrubbed again and again (the layers of every
   * new session's prompt, log lines' fixed parts), and a scan costs ~60 ns a character. Emptied when secrets change.
   */
  private readonly scrubbed = new Map<string, string>();

  /** `secrets` are the strings to hide; ones shorter than 4 characters are ignored. */
  constructor(params: { secrets: readonly string[] }) {
    this.add(params);
  }

  /** Hides more secrets from now on (a reloaded config's new tokens); the ones already known stay hidden. */
  add(params: { secrets: readonly string[] }): void {
    const known = [...new Set([...this.known, ...params.secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)])];
    if (known.length === this.known.length) return;
    this.known = Object.freeze(known);
    this.matcher = new SecretMatcher({ secrets: known });
    this.scrubbed.clear();
  }

  /** True when there is nothing to redact. */
  get isEmpty(): boolean {
    return this.matcher.isEmpty;
  }

  /** True when `text` contains a secret (in any form the matcher knows). */
  contains(text: string): boolean {
    return this.matcher.contains({ text });
  }

  /** `text` with every occurrence of every secret replaced by "***". */
  scrub(text: string): string {
    if (text.length < SCRUB_CACHE_MIN_CHARS || text.length > SCRUB_CACHE_MAX_CHARS) return this.matcher.scrub({ text });
    const known = this.scrubbed.get(text);
    if (known !== undefined) return known;
    const scrubbed = this.matcher.scrub({ text });
    this.scrubbed.set(text, scrubbed);
    if (this.scrubbed.size > SCRUB_CACHE_ENTRIES) this.scrubbed.delete(this.scrubbed.keys().next().value as string);
    return scrubbed;
  }

  /** How much of a still-growing text may be shown now (the rest could be the start of a secret); see SecretMatcher.safeLength. */
  safeLength(params: { text: string }): number {
    return this.matcher.safeLength(params);
  }

  /** Whether a file's bytes hold a secret (size-capped, chunked); see secrets/file-scan.ts. */
  scanFile(params: { path: string; signal?: AbortSignal }): Promise<FileScan> {
    return scanFile({ ...params, matcher: this.matcher });
  }

  /**
   * A scrubbed copy of `value`: strings are scrubbed; plain objects, arrays and errors (message, stack,
   * cause and other own properties) are copied deeply; cycles are preserved, the input is never mutated.
   * Other objects (Dates, Buffers, class instances) are returned as they are.
   */
  scrubValue(value: unknown): unknown {
    if (this.isEmpty) return value;
    return this.copy(value, new WeakMap(), 0);
  }

  /** Recursive worker for scrubValue; `seen` maps originals to their copies. */
  private copy(value: unknown, seen: WeakMap<object, unknown>, depth: number): unknown {
    if (typeof value === 'string') return this.scrub(value);
    if (value === null || typeof value !== 'object') return value;
    const already = seen.get(value);
    if (already !== undefined) return already;
    if (depth >= MAX_DEPTH) return '[nested too deeply]';
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      seen.set(value, out);
      for (const item of value) out.push(this.copy(item, seen, depth + 1));
      return out;
    }
    if (value instanceof Error) return this.copyError(value, seen, depth);
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    seen.set(value, out);
    for (const [key, item] of Object.entries(value)) out[key] = this.copy(item, seen, depth + 1);
    return out;
  }

  /** Copies an error keeping its prototype (so it is still an Error of the same class) and property flags. */
  private copyError(error: Error, seen: WeakMap<object, unknown>, depth: number): Error {
    const out = Object.create(Object.getPrototypeOf(error) as object | null) as Error;
    seen.set(error, out);
    for (const key of Reflect.ownKeys(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, key);
      if (descriptor === undefined) continue;
      const item: unknown = 'value' in descriptor ? descriptor.value : Reflect.get(error, key);
      Object.defineProperty(out, key, {
        value: this.copy(item, seen, depth + 1),
        enumerable: descriptor.enumerable ?? false,
        writable: true,
        configurable: true,
      });
    }
    this.copyAccessors({ error, out, seen, depth });
    return out;
  }

  /**
   * Getters a class defines on its prototype (DOMException's `name`, `message` and `code`) work only on the real
   * object: on the copy they throw (ERR_INVALID_THIS, which would end the process from inside a log call). Their
   * values are read from the original and put on the copy as its own, so nothing reads them from the copy.
   */
  private copyAccessors(params: { error: Error; out: Error; seen: WeakMap<object, unknown>; depth: number }): void {
    const { error, out } = params;
    for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Reflect.ownKeys(proto as object)) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, key);
        if (descriptor?.get === undefined || Object.prototype.hasOwnProperty.call(out, key)) continue;
        let item: unknown;
        try {
          item = Reflect.get(error, key);
        } catch {
          item = undefined;
        }
        Object.defineProperty(out, key, { value: this.copy(item, params.seen, params.depth + 1), enumerable: descriptor.enumerable ?? false, writable: true, configurable: true });
      }
    }
  }
}
