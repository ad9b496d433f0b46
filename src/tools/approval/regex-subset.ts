// The subset of regular-expression syntax the pattern tables use, parsed (literals, classes, `.`, `\s \S \d \D \w
// \W \b \B`, `^ $`, `(?:…)`, `|`, `* + ?`; no flags, captures, backreferences, lookaround or counted repetition), and
// the literals every match of a parsed pattern must contain. Meanings are those of a RegExp without flags (UTF-16
// code units, ASCII `\w`, `.` excluding line terminators).

/** A set of UTF-16 code units: inclusive ranges, possibly negated. */
export interface CharSet {
  negated: boolean;
  ranges: readonly (readonly [number, number])[];
}

/** A parsed pattern: a character set, a sequence, alternatives, a repetition or an assertion. */
export type Node =
  | { t: 'set'; set: CharSet }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; min: 0 | 1; max: number; item: Node }
  | { t: 'assert'; which: Assertion };

/** A zero-width assertion: `^`, `$`, `\b`, `\B`. */
export type Assertion = 'bol' | 'eol' | 'boundary' | 'not-boundary';

const SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const DIGIT: readonly (readonly [number, number])[] = [[0x30, 0x39]];
const WORD: readonly (readonly [number, number])[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const LINE_END: readonly (readonly [number, number])[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** The source uses syntax outside the subset (LinearMatcher then is not used for it). */
export class UnsupportedPatternError extends Error {}

/** True when `code` is in `set`. */
export function inSet(set: CharSet, code: number): boolean {
  let found = false;
  for (const [lo, hi] of set.ranges) {
    if (code >= lo && code <= hi) {
      found = true;
      break;
    }
  }
  return found !== set.negated;
}

/** True for a `\w` character. */
export function isWord(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || (code >= 0x61 && code <= 0x7a);
}

/** Recursive-descent parser of a regular expression source (no flags). */
class Parser {
  private i = 0;

  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new UnsupportedPatternError(`unexpected ${this.src[this.i] ?? ''} at ${this.i}`);
    return node;
  }

  private alternation(): Node {
    const items = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? (items[0] as Node) : { t: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.quantified());
    return { t: 'cat', items };
  }

  private quantified(): Node {
    const atom = this.atom();
    const q = this.src[this.i];
    if (q !== '*' && q !== '+' && q !== '?') {
      if (q === '{') throw new UnsupportedPatternError('counted repetition');
      return atom;
    }
    if (atom.t === 'assert') throw new UnsupportedPatternError('quantified assertion');
    this.i++;
    if (this.src[this.i] === '?') this.i++; // lazy: the same set of matches for test()
    if (q === '*') return { t: 'rep', min: 0, max: Infinity, item: atom };
    if (q === '+') return { t: 'rep', min: 1, max: Infinity, item: atom };
    return { t: 'rep', min: 0, max: 1, item: atom };
  }

  private atom(): Node {
    const c = this.src[this.i] ?? '';
    this.i++;
    if (c === '(') {
      if (this.src.slice(this.i, this.i + 2) !== '?:') throw new UnsupportedPatternError('only (?:…) groups');
      this.i += 2;
      const inner = this.alternation();
      if (this.src[this.i] !== ')') throw new UnsupportedPatternError('unclosed group');
      this.i++;
      return inner;
    }
    if (c === '^') return { t: 'assert', which: 'bol' };
    if (c === '$') return { t: 'assert', which: 'eol' };
    if (c === '.') return { t: 'set', set: { negated: true, ranges: LINE_END } };
    if (c === '[') return { t: 'set', set: this.charClass() };
    if (c === '\\') {
      const e = this.src[this.i] ?? '';
      this.i++;
      if (e === 'b') return { t: 'assert', which: 'boundary' };
      if (e === 'B') return { t: 'assert', which: 'not-boundary' };
      return { t: 'set', set: this.escape(e) };
    }
    if (c === '*' || c === '+' || c === '?' || c === '{' || c === '}' || c === ')' || c === ']') {
      throw new UnsupportedPatternError(`bare ${c}`);
    }
    const code = c.charCodeAt(0);
    return { t: 'set', set: { negated: false, ranges: [[code, code]] } };
  }

  private escape(e: string): CharSet {
    if (e === 's') return { negated: false, ranges: SPACE };
    if (e === 'S') return { negated: true, ranges: SPACE };
    if (e === 'd') return { negated: false, ranges: DIGIT };
    if (e === 'D') return { negated: true, ranges: DIGIT };
    if (e === 'w') return { negated: false, ranges: WORD };
    if (e === 'W') return { negated: true, ranges: WORD };
    if (e === 'n') return { negated: false, ranges: [[0x0a, 0x0a]] };
    if (e === 't') return { negated: false, ranges: [[0x09, 0x09]] };
    if (/^[a-zA-Z0-9]$/.test(e) || e === '') throw new UnsupportedPatternError(`escape \\${e}`);
    const code = e.charCodeAt(0);
    return { negated: false, ranges: [[code, code]] };
  }

  private charClass(): CharSet {
    let negated = false;
    if (this.src[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const ranges: (readonly [number, number])[] = [];
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      const lo = this.classAtom();
      if (lo.single !== undefined && this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        const hi = this.classAtom();
        if (hi.single === undefined || hi.single < lo.single) throw new UnsupportedPatternError('bad class range');
        ranges.push([lo.single, hi.single]);
      } else ranges.push(...lo.ranges);
    }
    if (this.src[this.i] !== ']') throw new UnsupportedPatternError('unclosed class');
    this.i++;
    return { negated, ranges };
  }

  private classAtom(): { single?: number; ranges: readonly (readonly [number, number])[] } {
    const c = this.src[this.i] ?? '';
    this.i++;
    if (c !== '\\') {
      const code = c.charCodeAt(0);
      return { single: code, ranges: [[code, code]] };
    }
    const e = this.src[this.i] ?? '';
    this.i++;
    if (e === 'b') return { single: 0x08, ranges: [[0x08, 0x08]] };
    const set = this.escape(e);
    if (set.negated) throw new UnsupportedPatternError('negated escape in a class');
    const only = set.ranges.length === 1 && set.ranges[0]?.[0] === set.ranges[0]?.[1] ? set.ranges[0]?.[0] : undefined;
    return only === undefined ? { ranges: set.ranges } : { single: only, ranges: set.ranges };
  }
}


/** Parses `source` (a RegExp source without flags); throws UnsupportedPatternError for syntax outside the subset. */
export function parsePattern(params: { source: string }): Node {
  return new Parser(params.source).parse();
}

/** Literals of which every match contains at least one, or undefined when none is known. */
export type Required = readonly string[] | undefined;

/** Prefers the requirement whose shortest literal is longest (it rules out the most texts). */
function better(a: Required, b: Required): Required {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const shortest = (r: readonly string[]): number => Math.min(...r.map((l) => l.length));
  return shortest(b) > shortest(a) || (shortest(b) === shortest(a) && b.length < a.length) ? b : a;
}

/** The single code unit a set matches, if it matches exactly one. */
function single(set: CharSet): string | undefined {
  const range = set.ranges[0];
  return !set.negated && set.ranges.length === 1 && range !== undefined && range[0] === range[1] ? String.fromCharCode(range[0]) : undefined;
}

/** Literals one of which every match of `node` contains (consecutive single characters make one literal). */
export function required(node: Node): Required {
  switch (node.t) {
    case 'set': {
      const c = single(node.set);
      return c === undefined ? undefined : [c];
    }
    case 'assert':
      return undefined;
    case 'rep':
      return node.min >= 1 ? required(node.item) : undefined;
    case 'alt': {
      const all: string[] = [];
      for (const item of node.items) {
        const r = required(item);
        if (r === undefined) return undefined;
        all.push(...r);
      }
      return [...new Set(all)];
    }
    case 'cat': {
      let best: Required;
      let run = '';
      for (const item of node.items) {
        const c = item.t === 'set' ? single(item.set) : undefined;
        if (c !== undefined) {
          run += c;
          continue;
        }
        if (run.length > 0) best = better(best, [run]);
        run = '';
        best = better(best, required(item));
      }
      return run.length > 0 ? better(best, [run]) : best;
    }
  }
}
