/** Most words one word's brace expansion may give; more (`{a,b}{c,d}…` multiplying) is reported as incomplete. */
export const MAX_BRACE_WORDS = 256;
/** Most characters the words of one expansion may hold together. */
const MAX_BRACE_CHARS = 64 * 1024;
/** Most brace groups one word may hold, and their deepest nesting, for it to be expanded. */
const MAX_BRACE_GROUPS = 64;
const MAX_BRACE_DEPTH = 8;
/** A `{a..z}` / `{1..20}` sequence (no step), as bash reads it. */
const SEQUENCE = /^(?:(-?\d{1,6})\.\.(-?\d{1,6})|([a-zA-Z])\.\.([a-zA-Z]))$/;

/** One `{…}` that expands: where it opens and closes, and its alternatives (ranges of the word, or sequence words). */
interface Group {
  open: number;
  close: number;
  alternatives: readonly (readonly [number, number])[] | readonly string[];
}

/**
 * The words bash's brace expansion makes of one word (`rm -{r,f}` → `-r -f`, `{rm,-rf,/}` → `rm -rf /`,
 * `.{env,x}` → `.env .x`); `marks` are the positions of the word's unquoted `{`, `,` and `}` (quoted ones are
 * literal). Empty results are dropped, as bash drops them. Undefined when the word holds more than MAX_BRACE_GROUPS
 * groups, nests them deeper than MAX_BRACE_DEPTH, or would give more than MAX_BRACE_WORDS words or MAX_BRACE_CHARS
 * characters (the caller then keeps the word and reports the command as not fully examined). The groups are found in
 * one pass over the marks; the work after it is bounded by the words made.
 */
export function expandBraces(params: { word: string; marks: readonly number[] }): string[] | undefined {
  const { word } = params;
  const groups = findGroups({ word, marks: params.marks });
  if (groups === undefined) return undefined;
  if (groups.length === 0) return [word];
  const budget = { words: 0, chars: 0 };
  const expandRange = (from: number, to: number, depth: number): string[] | undefined => {
    if (depth > MAX_BRACE_DEPTH) return undefined;
    const group = groups.find((g) => g.open >= from && g.close < to);
    if (group === undefined) return [word.slice(from, to)];
    const prefix = word.slice(from, group.open);
    const suffix = expandRange(group.close + 1, to, depth);
    if (suffix === undefined) return undefined;
    const out: string[] = [];
    for (const alternative of group.alternatives) {
      const inner = typeof alternative === 'string' ? [alternative] : expandRange(alternative[0], alternative[1], depth + 1);
      if (inner === undefined) return undefined;
      for (const a of inner) {
        for (const s of suffix) {
          const made = `${prefix}${a}${s}`;
          budget.words++;
          budget.chars += made.length;
          if (budget.words > MAX_BRACE_WORDS * MAX_BRACE_DEPTH || budget.chars > MAX_BRACE_CHARS || out.length >= MAX_BRACE_WORDS) return undefined;
          out.push(made);
        }
      }
    }
    return out;
  };
  return expandRange(0, word.length, 0)?.filter((w) => w.length > 0);
}

/** The word's groups that expand, in order of their `{` (braces matched with a stack); undefined when too many. */
function findGroups(params: { word: string; marks: readonly number[] }): Group[] | undefined {
  const { word } = params;
  const open: { at: number; commas: number[] }[] = [];
  const groups: Group[] = [];
  for (const at of params.marks) {
    const c = word[at];
    if (c === '{') open.push({ at, commas: [] });
    else if (c === ',') open[open.length - 1]?.commas.push(at);
    else {
      const top = open.pop();
      if (top === undefined) continue;
      if (top.commas.length > 0) {
        const bounds = [top.at, ...top.commas, at];
        const alternatives = bounds.slice(1).map((end, k): readonly [number, number] => [(bounds[k] ?? top.at) + 1, end]);
        groups.push({ open: top.at, close: at, alternatives });
      } else {
        const sequence = sequenceWords(word.slice(top.at + 1, at));
        if (sequence !== undefined) groups.push({ open: top.at, close: at, alternatives: sequence });
      }
      if (groups.length > MAX_BRACE_GROUPS) return undefined;
    }
  }
  return groups.sort((a, b) => a.open - b.open);
}

/** The words of a `{1..3}` / `{a..c}` sequence, or undefined when the text is none (or too long a one). */
function sequenceWords(inner: string): string[] | undefined {
  if (inner.length > 16) return undefined;
  const m = SEQUENCE.exec(inner);
  if (m === null) return undefined;
  const [from, to] = m[1] !== undefined ? [Number(m[1]), Number(m[2])] : [(m[3] ?? '').charCodeAt(0), (m[4] ?? '').charCodeAt(0)];
  if (Math.abs(to - from) >= MAX_BRACE_WORDS) return undefined;
  const step = to >= from ? 1 : -1;
  const out: string[] = [];
  for (let n = from; n !== to + step; n += step) out.push(m[1] !== undefined ? String(n) : String.fromCharCode(n));
  return out;
}
