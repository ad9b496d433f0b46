// A matcher for the pattern tables' regular expressions that takes a few nanoseconds per character: the source is
// parsed (the subset the tables use: literals, classes, `.`, `\s \S \d \D \w \W \b`, `^ $`, `(?:…)`, `|`, `* + ?`),
// turned into an NFA, and run as a DFA built lazily from it (one cached transition per state and character).
// V8's own linear-time engine simulates the NFA afresh at every character, which costs microseconds per character
// on a long segment; this one does the same search (RegExp#test: a match anywhere, no flags) in one pass.

import { type Assertion, type CharSet, inSet, isWord, type Node, parsePattern, required, type Required } from './regex-subset.js';

export { UnsupportedPatternError } from './regex-subset.js';

type NfaState =
  | { kind: 'set'; set: CharSet; out: number }
  | { kind: 'split'; out: number[] }
  | { kind: 'assert'; which: Assertion; out: number }
  | { kind: 'match' };

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

/**
 * Most DFA states kept per pattern by default (the tables reach at most ~80 on random and adversarial text; each
 * holds a 128-entry transition array); past it the cache starts over (still linear: a step is then an NFA step).
 */
const MAX_DFA_STATES = 512;

const MATCHED: DfaState = { key: 'matched', sets: [], atStart: false, prevWord: false, ascii: [], other: new Map(), dead: false };

/**
 * Characters a search reads before it checks the pattern's required literals. Most patterns are anchored and fail
 * within a few characters, sooner than `includes` could scan the text; a pattern still alive this far (`^\S+\s(?:.*\s)?…`,
 * an unanchored `\bdrop…`) is abandoned at once when the text lacks every literal a match needs.
 */
const PREFILTER_AFTER = 64;

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
    const root = parsePattern({ source: params.source });
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
