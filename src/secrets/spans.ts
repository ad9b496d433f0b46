import { decodedViews } from './decode.js';
import { GRAM_LENGTH, type SecretPatterns } from './patterns.js';
import { project } from './projection.js';

/** A half-open range [start, end) of a text that holds (part of) a secret. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** How many times decoded text is decoded again (base64 inside hex, base64 of base64). */
export const MAX_DECODE_DEPTH = 2;

/** The patterns a search uses: `text` for the text itself, `bytes` for decoded bytes (Latin-1). */
export interface PatternPair {
  readonly text: SecretPatterns;
  readonly bytes: SecretPatterns;
}

/** Sorts spans and merges those that overlap or touch. */
export function mergeSpans(params: { spans: readonly Span[] }): Span[] {
  const sorted = [...params.spans].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last !== undefined && span.start <= last.end) out[out.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else out.push(span);
  }
  return out;
}

/** Spans of exact occurrences of the raw patterns. */
function rawSpans(params: { text: string; patterns: SecretPatterns; out: Span[] }): void {
  const { text, patterns } = params;
  patterns.rawGrams.scan({ text, onHit: (start) => params.out.push({ start, end: start + GRAM_LENGTH }) });
  for (const raw of patterns.raws) {
    for (let at = params.text.indexOf(raw); at !== -1; at = params.text.indexOf(raw, at + 1)) {
      params.out.push({ start: at, end: at + raw.length });
    }
  }
}

/** Spans of gram and whole-secret occurrences in the text's projection (letters and digits, separators skipped). */
function projectedSpans(params: { text: string; patterns: SecretPatterns; out: Span[] }): void {
  const { patterns, out } = params;
  if (patterns.wholes.length === 0) return;
  const { chars, positions } = project({ text: params.text });
  const toSpan = (first: number, length: number): Span => ({ start: positions[first] ?? 0, end: (positions[first + length - 1] ?? 0) + 1 });
  patterns.grams.scan({ text: chars, onHit: (start) => out.push(toSpan(start, GRAM_LENGTH)) });
  for (const whole of patterns.wholes) {
    for (let at = chars.indexOf(whole); at !== -1; at = chars.indexOf(whole, at + 1)) out.push(toSpan(at, whole.length));
  }
}

/**
 * Where secrets occur in `text`: as they are, JSON-escaped, with separators between their characters, reversed,
 * and inside base64/base64url, hex or percent-encoded runs (decoded up to MAX_DECODE_DEPTH times). Long secrets
 * also match partially: any GRAM_LENGTH consecutive letters and digits of one. Returns merged, sorted spans.
 */
export function findSpans(params: { text: string; patterns: PatternPair; depth?: number }): Span[] {
  const { text, patterns } = params;
  const depth = params.depth ?? 0;
  const own = depth === 0 ? patterns.text : patterns.bytes;
  const out: Span[] = [];
  if (own.empty || text === '') return out;
  rawSpans({ text, patterns: own, out });
  projectedSpans({ text, patterns: own, out });
  if (depth < MAX_DECODE_DEPTH) {
    for (const view of decodedViews({ text })) {
      for (const span of findSpans({ text: view.text, patterns, depth: depth + 1 })) {
        out.push({ start: view.starts[span.start] ?? 0, end: view.ends[span.end - 1] ?? 0 });
      }
    }
  }
  return mergeSpans({ spans: out });
}

/** `text` with each span replaced by `mask`. */
export function applySpans(params: { text: string; spans: readonly Span[]; mask: string }): string {
  let out = '';
  let at = 0;
  for (const span of params.spans) {
    if (span.start < at) continue;
    out += params.text.slice(at, span.start) + params.mask;
    at = span.end;
  }
  return out + params.text.slice(at);
}
