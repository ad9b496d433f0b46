import v8 from 'node:v8';
import { DANGER_PATTERNS } from './danger-patterns.js';
import { HARD_BLOCKLIST } from './hard-blocklist.js';
import { LinearMatcher, UnsupportedPatternError } from './linear-matcher.js';
import { normalizeCommand } from './normalize-command.js';
import type { CommandVerdict, DangerMatch, DangerPattern } from './types.js';

// Lets the 'l' flag select V8's linear-time engine (as src/tools/builtin/linear-regex.ts does). The tables are matched
// by LinearMatcher (a lazily built DFA: each segment character read once per pattern, a few ns each); a pattern using
// syntax it lacks falls back to the 'l' engine, linear too but microseconds per character on a long segment.
v8.setFlagsFromString('--enable-experimental-regexp-engine');

/** The match reported for a command that could not be examined in full (too long, or nested too deeply). */
export const UNCHECKED_COMMAND: Omit<DangerMatch, 'segment'> = {
  patternId: 'unchecked-command',
  description: 'a command too long or too deeply nested to check',
};

/** How much of an unchecked command its match quotes. */
const UNCHECKED_SEGMENT_CHARS = 200;

/** Anything with RegExp#test's meaning: a match anywhere in the text. */
interface Tester {
  test: (text: string) => boolean;
}

/** A table entry with its pattern compiled to a LinearMatcher (or V8's linear-time engine if it cannot be). */
interface Compiled {
  entry: DangerPattern;
  regex: Tester;
}

/** Compiles `pattern` with the 'l' flag; falls back to it unchanged when the engine is missing. */
export function linearPattern(params: { pattern: RegExp }): RegExp {
  const { pattern } = params;
  const flags = pattern.flags.replace(/[gy]/g, '');
  try {
    return new RegExp(pattern.source, `${flags}l`);
  } catch {
    return new RegExp(pattern.source, flags);
  }
}

/** Compiled entries by pattern: a table is compiled once, whoever asks. */
const compiled = new WeakMap<DangerPattern, Compiled>();

/** A pattern as a LinearMatcher (a DFA, a few ns per character); V8's linear-time engine for syntax it lacks. */
function tester(pattern: RegExp): Tester {
  if (pattern.flags.replace(/[gy]/g, '') === '') {
    try {
      return new LinearMatcher({ source: pattern.source });
    } catch (error) {
      if (!(error instanceof UnsupportedPatternError)) throw error;
    }
  }
  return linearPattern({ pattern });
}

const compile = (table: readonly DangerPattern[]): Compiled[] =>
  table.map((entry) => {
    let c = compiled.get(entry);
    if (c === undefined) {
      c = { entry, regex: tester(entry.pattern) };
      compiled.set(entry, c);
    }
    return c;
  });

/** The tables, compiled at the first command checked (compiling them costs ~60 ms that a start need not pay). */
let tables: { blocklist: Compiled[]; dangerous: Compiled[] } | undefined;

function compiledTables(): { blocklist: Compiled[]; dangerous: Compiled[] } {
  tables ??= { blocklist: compile(HARD_BLOCKLIST), dangerous: compile(DANGER_PATTERNS) };
  return tables;
}

/** Classifies a command line: blocked (hard blocklist) wins over dangerous (needs approval), else safe. */
export function classifyCommand(params: { command: string }): CommandVerdict {
  const { segments, complete } = normalizeCommand({ command: params.command });
  const lowered = segments.map((segment) => ({ segment, text: segment.toLowerCase() }));
  const { blocklist, dangerous } = compiledTables();
  for (const { segment, text } of lowered) {
    const hit = blocklist.find((c) => c.regex.test(text));
    if (hit) return { kind: 'blocked', match: toMatch({ entry: hit.entry, segment }) };
  }
  const matches = new Map<string, DangerMatch>();
  for (const { segment, text } of lowered) {
    for (const c of dangerous) {
      if (!matches.has(c.entry.id) && c.regex.test(text)) matches.set(c.entry.id, toMatch({ entry: c.entry, segment }));
    }
  }
  if (!complete) {
    const start = params.command.slice(0, UNCHECKED_SEGMENT_CHARS);
    matches.set(UNCHECKED_COMMAND.patternId, { ...UNCHECKED_COMMAND, segment: start });
  }
  return matches.size > 0 ? { kind: 'dangerous', matches: [...matches.values()] } : { kind: 'safe' };
}

/** The patterns of `table` that match `command` (after normalising), one per id: for tests and tooling. */
export function matchingPatternIds(params: { command: string; table: readonly DangerPattern[] }): string[] {
  const { segments } = normalizeCommand({ command: params.command });
  const ids: string[] = [];
  for (const c of compile(params.table)) {
    if (segments.some((s) => c.regex.test(s.toLowerCase()))) ids.push(c.entry.id);
  }
  return ids;
}

function toMatch(params: { entry: DangerPattern; segment: string }): DangerMatch {
  return { patternId: params.entry.id, description: params.entry.description, segment: params.segment };
}
