// A matcher for the pattern tables' regular expressions that takes a few nanoseconds per character: the source is
// parsed (the subset the tables use: literals, classes, `.`, `\s \S \d \D \w \W \b`, `^ $`, `(?:…)`, `|`, `* + ?`),
// turned into an NFA, and run as a DFA built lazily from it (one cached transition per state and character).
// V8's own linear-time engine simulates the NFA afresh at every character, which costs microseconds per character
// on a long segment; this one does the same search (RegExp#test: a match anywhere, no flags) in one pass.

/** A set of UTF-16 code units: inclusive ranges, possibly negated. */
interface CharSet {
  negated: boolean;
  ranges: readonly (readonly [number, number])[];
}

type Node =
  | { t: 'set'; set: CharSet }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; min: 0 | 1; max: number; item: Node }
  | { t: 'assert'; which: Assertion };

type Assertion = 'bol' | 'eol' | 'boundary' | 'not-boundary';

type NfaState =
  | { kind: 'set'; set: CharSet; out: number }
  | { kind: 'split'; out: number[] }
  | { kind: 'assert'; which: Assertion; out: number }
  | { kind: 'match' };

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

/** The source uses syntax this matcher does not implement. */
export class UnsupportedPatternError extends Error {}

/** True when `code` is in `set`. */
function inSet(set: CharSet, code: number): boolean {
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
function isWord(code: number): boolean {
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

/** Thompson construction: the NFA's states, with `compile(node, next)` returning the entry of `node` before `next`. */
function buildNfa(root: Node): { states: NfaState[]; start: number } {
  const states: NfaState[] = [{ kind: 'match' }];
  const add = (s: NfaState): number => states.push(s) - 1;
  const compile = (node: Node, next: number): number => {
    switch (node.t) {
      case 'set':
        return add({ kind: 'set', set: node.set, out: next });
      case 'assert':
        return add({ kind: 'assert', which: node.which, out: next });
      case 'cat': {
        let at = next;
        for (let k = node.items.length - 1; k >= 0; k--) at = compile(node.items[k] as Node, at);
        return at;
      }
      case 'alt':
        return add({ kind: 'split', out: node.items.map((item) => compile(item, next)) });
      case 'rep': {
        if (node.max === 1) return add({ kind: 'split', out: [compile(node.item, next), next] });
        const loop: NfaState = { kind: 'split', out: [] };
        const loopId = add(loop);
        const body = compile(node.item, loopId);
        loop.out.push(body, next);
        return node.min === 0 ? loopId : body;
      }
    }
  };
  return { states, start: compile(root, 0) };
}

/** Where the input is, for the assertions of an epsilon closure. */
interface Context {
  atStart: boolean;
  prevWord: boolean;
  /** The next character's code, or -1 at the end of the input. */
  next: number;
}

/** A state of the lazily built DFA: the NFA's consuming states reached so far (the search's start is implied). */
interface DfaState {
  key: string;
  sets: readonly number[];
  atStart: boolean;
  prevWord: boolean;
  /** Next state per ASCII code (MATCHED when a match ends before it). */
  ascii: (DfaState | undefined)[];
  /** Next state per class of codes from 128 up (codes no set of the pattern tells apart share a class). */
  other: Map<number, DfaState>;
  /** Whether a match ends at the end of the input, once computed. */
  endMatch?: boolean;
  /** No thread left and none can start (an anchored pattern past its start): the search has failed. */
  dead: boolean;
}

/** Most DFA states kept per pattern by default; past it the cache starts over (still linear: a step is then an NFA step). */
const MAX_DFA_STATES = 2000;

const MATCHED: DfaState = { key: 'matched', sets: [], atStart: false, prevWord: false, ascii: [], other: new Map(), dead: false };

/**
 * Characters a search reads before it checks the pattern's required literals. Most patterns are anchored and fail
 * within a few characters, sooner than `includes` could scan the text; a pattern still alive this far (`^\S+\s(?:.*\s)?…`,
 * an unanchored `\bdrop…`) is abandoned at once when the text lacks every literal a match needs.
 */
const PREFILTER_AFTER = 64;

/** Literals of which every match contains at least one, or undefined when none is known. */
type Required = readonly string[] | undefined;

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
function required(node: Node): Required {
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

/** A compiled pattern: `test` answers as RegExp#test on the same source (no flags) would. */
export class LinearMatcher {
  private readonly states: NfaState[];
  private readonly start: number;
  private cache = new Map<string, DfaState>();
  private initial: DfaState;
  /** True when no match can start after the first character (every branch begins with `^`). */
  private readonly anchored: boolean;
  /** Sorted starts of the intervals of codes ≥ 128 that the pattern's sets tell apart. */
  private readonly cuts: readonly number[];
  private readonly maxStates: number;
  /** Literals one of which every match contains: a text with none of them is refused without a DFA step. */
  private readonly required: Required;

  /** Compiles `source` (a RegExp source, no flags); throws UnsupportedPatternError for syntax outside the subset. */
  constructor(params: { source: string; maxStates?: number }) {
    const root = new Parser(params.source).parse();
    this.required = required(root);
    const nfa = buildNfa(root);
    this.states = nfa.states;
    this.start = nfa.start;
    this.maxStates = params.maxStates ?? MAX_DFA_STATES;
    const cuts = new Set<number>([128]);
    for (const state of this.states) {
      if (state.kind !== 'set') continue;
      for (const [lo, hi] of state.set.ranges) {
        if (lo >= 128) cuts.add(lo);
        if (hi + 1 >= 128) cuts.add(hi + 1);
      }
    }
    this.cuts = [...cuts].sort((a, b) => a - b);
    this.anchored = [false, true].every((prevWord) =>
      [-1, 0x20, 0x61].every((next) => {
        const { sets, matched } = this.close([], { atStart: false, prevWord, next });
        return sets.length === 0 && !matched;
      }),
    );
    this.initial = this.intern([], true, false);
  }

  /** Counts characters stepped over by every matcher, for tests of bounded work. */
  static stepped = 0;

  /** The literals one of which every match contains (for tests). */
  get requiredLiterals(): readonly string[] | undefined {
    return this.required;
  }

  /** Number of DFA states built so far (since the cache last started over). */
  get size(): number {
    return this.cache.size;
  }

  /** True when the pattern matches anywhere in `text`. */
  test(text: string): boolean {
    const required = this.required;
    const checkAt = required === undefined ? -1 : PREFILTER_AFTER;
    let state = this.initial;
    let i = 0;
    for (; i < text.length; i++) {
      if (i === checkAt && required !== undefined && !required.some((literal) => text.includes(literal))) {
        LinearMatcher.stepped += i;
        return false;
      }
      const code = text.charCodeAt(i);
      let next = code < 128 ? state.ascii[code] : state.other.get(this.classOf(code));
      if (next === undefined) next = this.step(state, code);
      if (next === MATCHED) break;
      state = next;
      if (state.dead) break;
    }
    LinearMatcher.stepped += i;
    if (i < text.length) return !state.dead;
    if (state.endMatch === undefined) state.endMatch = this.close(state.sets, { atStart: state.atStart, prevWord: state.prevWord, next: -1 }).matched;
    return state.endMatch;
  }

  private step(state: DfaState, code: number): DfaState {
    const { sets, matched } = this.close(state.sets, { atStart: state.atStart, prevWord: state.prevWord, next: code });
    let next: DfaState;
    if (matched) next = MATCHED;
    else {
      const reached = new Set<number>();
      for (const id of sets) {
        const s = this.states[id];
        if (s?.kind === 'set' && inSet(s.set, code)) reached.add(s.out);
      }
      if (this.cache.size >= this.maxStates) {
        // Start over; the old states stay unlinked from the new ones, so they are freed once this search moves on.
        this.cache = new Map();
        this.initial = this.intern([], true, false);
        return this.intern([...reached].sort((a, b) => a - b), false, isWord(code));
      }
      next = this.intern([...reached].sort((a, b) => a - b), false, isWord(code));
    }
    if (code < 128) state.ascii[code] = next;
    else state.other.set(this.classOf(code), next);
    return next;
  }

  /** The index of the interval of `code` (≥ 128) among `cuts`: every code of one interval is in the same sets. */
  private classOf(code: number): number {
    let lo = 0;
    let hi = this.cuts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.cuts[mid] ?? 0) <= code) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private intern(sets: readonly number[], atStart: boolean, prevWord: boolean): DfaState {
    const key = `${atStart ? 's' : ''}${prevWord ? 'w' : ''}:${sets.join(',')}`;
    let state = this.cache.get(key);
    if (state === undefined) {
      const dead = this.anchored && !atStart && sets.length === 0;
      state = { key, sets, atStart, prevWord, ascii: new Array<DfaState | undefined>(128).fill(undefined), other: new Map(), dead };
      this.cache.set(key, state);
    }
    return state;
  }

  /** The consuming states reachable from `from` plus the search's start without reading, and whether a match is. */
  private close(from: readonly number[], ctx: Context): { sets: number[]; matched: boolean } {
    const seen = new Set<number>();
    const sets: number[] = [];
    let matched = false;
    const stack = [this.start, ...from];
    const nextWord = ctx.next >= 0 && isWord(ctx.next);
    while (stack.length > 0) {
      const id = stack.pop() as number;
      if (seen.has(id)) continue;
      seen.add(id);
      const s = this.states[id];
      if (s === undefined) continue;
      if (s.kind === 'match') matched = true;
      else if (s.kind === 'set') sets.push(id);
      else if (s.kind === 'split') stack.push(...s.out);
      else if (
        (s.which === 'bol' && ctx.atStart) ||
        (s.which === 'eol' && ctx.next < 0) ||
        (s.which === 'boundary' && ctx.prevWord !== nextWord) ||
        (s.which === 'not-boundary' && ctx.prevWord === nextWord)
      ) {
        stack.push(s.out);
      }
    }
    return { sets, matched };
  }
}
