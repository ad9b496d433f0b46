import { canonicalCode, codeEscape, foldedClassExtras } from './case-fold.js';

/** One atom inside a character class: a single code unit, or a set escape such as \d. */
type ClassAtom = { code: number; end: number } | { code: undefined; end: number };

/** Escapes that stand for themselves (or a set) whatever the case setting. */
const FIXED_ESCAPES = new Set([...'dDwWsSbBfnrtv']);
/** Values of control escapes inside a class (\b is backspace there). */
const CLASS_CONTROLS: Readonly<Record<string, number>> = { b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * Rewrites a valid JavaScript regular expression (non-unicode mode) for a yes/no test per line on
 * V8's linear-time engine: capturing groups become non-capturing (captures slow that engine down and
 * a test needs none; the caller has rejected backreferences). With `ignoreCase`, letters are folded
 * (see case-fold.ts) and the result must run on `canonicalize(line)` without the i flag.
 */
export function rewritePattern(params: { pattern: string; ignoreCase: boolean }): string {
  const { pattern, ignoreCase } = params;
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] ?? '';
    if (ch === '\\') {
      const escape = rewriteEscape({ pattern, at: i, ignoreCase });
      out += escape.source;
      i = escape.end;
    } else if (ch === '[') {
      const end = classEnd({ pattern, at: i });
      out += ignoreCase ? foldClass({ pattern, at: i, end }) : pattern.slice(i, end + 1);
      i = end + 1;
    } else if (ch === '(' && pattern[i + 1] !== '?') {
      out += '(?:';
      i += 1;
    } else if (pattern.startsWith('(?<', i) && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
      out += '(?:';
      i = pattern.indexOf('>', i) + 1;
    } else {
      out += ignoreCase ? foldedLiteral({ code: ch.charCodeAt(0), raw: ch }) : ch;
      i += 1;
    }
  }
  return out;
}

/** A literal outside a class: unchanged when folding leaves it alone, else its folded form. */
function foldedLiteral(params: { code: number; raw: string }): string {
  const folded = canonicalCode(params.code);
  return folded === params.code ? params.raw : codeEscape(folded);
}

/** An escape outside a class, starting at the backslash. */
function rewriteEscape(params: { pattern: string; at: number; ignoreCase: boolean }): { source: string; end: number } {
  const { pattern, at, ignoreCase } = params;
  const e = pattern[at + 1] ?? '';
  const raw = (end: number): { source: string; end: number } => ({ source: pattern.slice(at, end), end });
  if (e === 'c') {
    // \c with a letter is a control character; otherwise (Annex B) a literal backslash.
    return /[A-Za-z]/.test(pattern[at + 2] ?? '') ? raw(at + 3) : { source: '\\\\', end: at + 1 };
  }
  if (!ignoreCase || e === '' || FIXED_ESCAPES.has(e)) return raw(at + 2);
  const value = escapeValue({ pattern, at });
  return { source: foldedLiteral({ code: value.code, raw: pattern.slice(at, value.end) }), end: value.end };
}

/** Code unit of a character escape (\x41, \u0041, legacy octal \101, identity \.), starting at the backslash. */
function escapeValue(params: { pattern: string; at: number }): { code: number; end: number } {
  const { pattern, at } = params;
  const e = pattern[at + 1] ?? '';
  const hex = (digits: number): string | undefined => {
    const text = pattern.slice(at + 2, at + 2 + digits);
    return text.length === digits && /^[0-9A-Fa-f]+$/.test(text) ? text : undefined;
  };
  const x = e === 'x' ? hex(2) : e === 'u' ? hex(4) : undefined;
  if (x !== undefined) return { code: Number.parseInt(x, 16), end: at + 2 + x.length };
  if (/[0-7]/.test(e)) {
    const digits = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(pattern.slice(at + 1))?.[0] ?? e;
    return { code: Number.parseInt(digits, 8), end: at + 1 + digits.length };
  }
  return { code: e.charCodeAt(0), end: at + 2 };
}

/** Index of the `]` closing the class that opens at `at` (a `]` right after `[` or `[^` closes it too). */
function classEnd(params: { pattern: string; at: number }): number {
  const { pattern } = params;
  let i = params.at + 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i;
}

/** A class with the folded forms of its members added, so it matches folded text as the original did with /i. */
function foldClass(params: { pattern: string; at: number; end: number }): string {
  const { pattern, end } = params;
  let i = params.at + 1;
  if (pattern[i] === '^') i += 1;
  const singles: number[] = [];
  const ranges: [number, number][] = [];
  while (i < end) {
    const first = classAtom({ pattern, at: i });
    const isRange = pattern[first.end] === '-' && first.end + 1 < end;
    const second = isRange ? classAtom({ pattern, at: first.end + 1 }) : undefined;
    if (second && first.code !== undefined && second.code !== undefined) {
      ranges.push([first.code, second.code]);
    } else {
      for (const atom of [first, second]) if (atom?.code !== undefined) singles.push(atom.code);
      if (second) singles.push('-'.charCodeAt(0));
    }
    i = (second ?? first).end;
  }
  return `${pattern.slice(params.at, end)}${foldedClassExtras({ singles, ranges })}]`;
}

/** One class atom starting at `at`. */
function classAtom(params: { pattern: string; at: number }): ClassAtom {
  const { pattern, at } = params;
  if (pattern[at] !== '\\') return { code: pattern.charCodeAt(at), end: at + 1 };
  const e = pattern[at + 1] ?? '';
  if (/[dDwWsS]/.test(e)) return { code: undefined, end: at + 2 };
  const control = CLASS_CONTROLS[e];
  if (control !== undefined) return { code: control, end: at + 2 };
  if (e === 'c') {
    const next = pattern[at + 2] ?? '';
    return /[A-Za-z0-9_]/.test(next) ? { code: next.charCodeAt(0) % 32, end: at + 3 } : { code: 92, end: at + 1 };
  }
  return escapeValue({ pattern, at });
}
