import { tailViews } from './decode.js';
import { byteForms, compilePatterns, type SecretPatterns } from './patterns.js';
import { project } from './projection.js';
import { applySpans, findSpans, type PatternPair, type Span } from './spans.js';

/** What replaces a secret. */
export const SECRET_MASK = '***';

/**
 * Fewest characters at the end of a streamed text that must match the start of something secret-like before
 * they are held back: fewer could be anything (the last letter of a word), and at most this many minus one are
 * ever shown before a secret is masked.
 */
const MIN_HELD = 3;

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
   * could be the beginning of a secret in any form (MIN_HELD or more letters and digits that occur in a secret,
   * spread out or reversed; the start of a short secret; a base64 or hex run at the end whose decoded bytes end
   * that way), and so is a secret span that reaches into the held part.
   * What is shown must still be scrubbed. A caller should never show less than it showed before (the result
   * may shrink when more text arrives: show the larger of the two); what it showed then is never a secret's
   * start of MIN_HELD or more characters.
   */
  safeLength(params: { text: string }): number {
    const { text } = params;
    if (this.isEmpty) return text.length;
    let hold = this.heldEnd({ text, patterns: this.patterns.text });
    for (const view of tailViews({ text })) {
      const held = this.heldEnd({ text: view.text, patterns: this.patterns.bytes });
      if (held < view.text.length) hold = Math.min(hold, view.starts[held] ?? hold);
    }
    for (const span of this.spans({ text })) {
      if (span.start < hold && span.end > hold) hold = span.start;
    }
    return hold;
  }

  /** Where the end of `text` that could begin a secret starts (letters and digits of a long one, or a short one's start). */
  private heldEnd(params: { text: string; patterns: SecretPatterns }): number {
    return Math.min(this.projectedHold(params), this.rawHold(params));
  }

  /** Start of the longest end of `text` whose letters and digits occur in a long secret (forwards or reversed). */
  private projectedHold(params: { text: string; patterns: SecretPatterns }): number {
    const { text } = params;
    const { wholes, longestWhole } = params.patterns;
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
    return low < MIN_HELD ? text.length : from + (positions[chars.length - low] ?? 0);
  }

  /** Start of the longest end of `text` that begins one of the short secrets matched whole. */
  private rawHold(params: { text: string; patterns: SecretPatterns }): number {
    const { text } = params;
    let hold = text.length;
    for (const raw of params.patterns.raws) {
      for (let length = Math.min(raw.length - 1, text.length); length >= MIN_HELD - 1; length--) {
        if (text.endsWith(raw.slice(0, length))) {
          hold = Math.min(hold, text.length - length);
          break;
        }
      }
    }
    return hold;
  }
}
