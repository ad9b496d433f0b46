import { trailingBase64Start, trailingHexStart } from './decode.js';
import { byteForms, compilePatterns } from './patterns.js';
import { project } from './projection.js';
import { applySpans, findSpans, type PatternPair, type Span } from './spans.js';

/** What replaces a secret. */
export const SECRET_MASK = '***';

/**
 * Finds a profile's secrets in text by content, not by exact string: raw, JSON-escaped, spread out by separators,
 * reversed, base64/base64url, hex or percent-encoded, and partial copies of 8 or more consecutive letters and
 * digits (see spans.ts). Built once from the profile's secret list; immutable.
 */
export class SecretMatcher {
  private readonly patterns: PatternPair;
  /** Length in bytes of the longest secret (UTF-8). */
  readonly longestSecretBytes: number;

  /** `secrets` are the strings to find (every .env value and configured token, key or password). */
  constructor(params: { secrets: readonly string[] }) {
    const text = compilePatterns({ secrets: params.secrets });
    const forms = byteForms({ secrets: params.secrets });
    const sameBytes = forms.every((form, i) => form === params.secrets[i]);
    this.patterns = { text, bytes: sameBytes ? text : compilePatterns({ secrets: forms }) };
    this.longestSecretBytes = forms.reduce((max, form) => Math.max(max, form.length), 0);
  }

  /** True when there is nothing to find. */
  get isEmpty(): boolean {
    return this.patterns.text.empty;
  }

  /** The merged spans of `text` that hold secrets. */
  spans(params: { text: string }): Span[] {
    return findSpans({ text: params.text, patterns: this.patterns });
  }

  /** Spans of secrets in decoded bytes (a file read as Latin-1). */
  byteSpans(params: { text: string }): Span[] {
    return findSpans({ text: params.text, patterns: { text: this.patterns.bytes, bytes: this.patterns.bytes } });
  }

  /** True when `text` holds a secret in any of the forms the matcher knows. */
  contains(params: { text: string }): boolean {
    return this.spans(params).length > 0;
  }

  /** `text` with every secret span replaced by "***". */
  scrub(params: { text: string }): string {
    if (this.isEmpty) return params.text;
    const spans = this.spans(params);
    return spans.length === 0 ? params.text : applySpans({ text: params.text, spans, mask: SECRET_MASK });
  }

  /**
   * How much of a text that is still growing (a streamed reply) may be shown now: the end is held back while it
   * could be the beginning of a secret in any form (letters and digits that occur in a secret, a base64 or hex
   * run still open, the start of a short secret), and so is a secret span that reaches into the held part.
   * What is shown must still be scrubbed; later calls with more text never need to hide what was released.
   */
  safeLength(params: { text: string }): number {
    const { text } = params;
    if (this.isEmpty) return text.length;
    let hold = Math.min(text.length, trailingBase64Start({ text }), trailingHexStart({ text }), this.projectedHold({ text }), this.rawHold({ text }));
    for (const span of this.spans({ text })) {
      if (span.start < hold && span.end > hold) hold = span.start;
    }
    return hold;
  }

  /** Start of the longest end of `text` whose letters and digits occur in a long secret (forwards or reversed). */
  private projectedHold(params: { text: string }): number {
    const { text } = params;
    const { wholes, longestWhole } = this.patterns.text;
    if (longestWhole === 0) return text.length;
    // Enough characters for the longest secret, however spread out by separators.
    const from = Math.max(0, text.length - longestWhole * 8);
    const { chars, positions } = project({ text: text.slice(from) });
    const occurs = (length: number): boolean => {
      const tail = chars.slice(chars.length - length);
      return wholes.some((whole) => whole.includes(tail));
    };
    // Every end of a substring of a secret is one too, so the lengths that occur form a prefix: binary search.
    let low = 0;
    let high = Math.min(chars.length, longestWhole);
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (occurs(mid)) low = mid;
      else high = mid - 1;
    }
    return low === 0 ? text.length : from + (positions[chars.length - low] ?? 0);
  }

  /** Start of the longest end of `text` that begins one of the short secrets matched whole. */
  private rawHold(params: { text: string }): number {
    const { text } = params;
    let hold = text.length;
    for (const raw of this.patterns.text.raws) {
      for (let length = Math.min(raw.length - 1, text.length); length > 0; length--) {
        if (text.endsWith(raw.slice(0, length))) {
          hold = Math.min(hold, text.length - length);
          break;
        }
      }
    }
    return hold;
  }
}
