import v8 from 'node:v8';
import { threatPatterns } from './patterns.js';
import { type ThreatCategory, type ThreatPattern } from './types.js';
import { scanViews } from './normalize.js';

// Lets `new RegExp(source, 'l')` use V8's linear-time engine (as src/tools/builtin/linear-regex.ts does).
v8.setFlagsFromString('--enable-experimental-regexp-engine');

/** Where scanned text comes from (for the reason and the log line). */
export type ThreatSource = 'memory' | 'context-file' | 'skill' | 'heartbeat' | 'mcp-tool';

/** Why a text was refused. */
export interface ThreatFinding {
  /** The pattern's id in the table (e.g. "ignore-previous"). */
  readonly id: string;
  readonly category: ThreatCategory;
  /** One line for the user or the model, e.g. "it asks to ignore earlier instructions". */
  readonly reason: string;
  /** What matched (normalised, at most 80 characters; invisible characters as U+XXXX). */
  readonly match: string;
}

/** A table row compiled for scanning. */
interface CompiledPattern {
  readonly row: ThreatPattern;
  readonly anchor: RegExp;
  /** The anchor with the `g` flag, for finding every occurrence. */
  readonly anchorAll: RegExp;
  readonly regex: RegExp;
  /** The row's `allow`, compiled like `regex`. */
  readonly allow: RegExp | undefined;
  /** True when compiled for the linear-time engine. */
  readonly linear: boolean;
}

/** Compiles a row with the linear-time engine when this V8 has it (every row is written for it; a test checks). */
function compile(row: ThreatPattern): CompiledPattern {
  const anchor = new RegExp(row.anchor.source);
  const anchorAll = new RegExp(row.anchor.source, 'g');
  try {
    const allow = row.allow === undefined ? undefined : new RegExp(row.allow.source, 'l');
    return { row, anchor, anchorAll, regex: new RegExp(row.test.source, 'lm'), allow, linear: true };
  } catch {
    const allow = row.allow === undefined ? undefined : new RegExp(row.allow.source);
    return { row, anchor, anchorAll, regex: new RegExp(row.test.source, 'm'), allow, linear: false };
  }
}

const compiled: readonly CompiledPattern[] = threatPatterns.map(compile);

/** Ids of rows that could not be compiled for the linear-time engine (empty on Node 20+; tests check). */
export function nonLinearPatternIds(): string[] {
  return compiled.filter((c) => !c.linear).map((c) => c.row.id);
}

/** Every finding in `text`, one per matching row, in table order. */
export function findThreats(params: { text: string }): ThreatFinding[] {
  return scan({ text: params.text, all: true });
}

/** Runs the table on the views of `text`; stops at the first finding unless `all`. */
function scan(params: { text: string; all: boolean }): ThreatFinding[] {
  const views = scanViews({ text: params.text });
  let lines: readonly string[] | undefined;
  const findings: ThreatFinding[] = [];
  for (const pattern of compiled) {
    const { row, anchor, regex, allow } = pattern;
    const view = views[row.view];
    if (!anchor.test(view)) continue;
    let found: RegExpExecArray | null = null;
    if (row.view === 'lines') {
      // Line patterns match within one line: run the (slower) linear-time test only on lines holding the anchor.
      lines ??= view.split('\n');
      for (const line of lines) {
        found = anchor.test(line) ? regex.exec(line) : null;
        if (found !== null && allow?.test(line) === true) found = null;
        if (found !== null) break;
      }
    } else if (row.window !== undefined) {
      for (const slice of anchorWindows({ pattern, view, window: row.window })) {
        found = regex.exec(slice);
        if (found !== null) break;
      }
    } else {
      found = regex.exec(view);
    }
    if (found === null) continue;
    findings.push({ id: row.id, category: row.category, reason: row.reason, match: describeMatch({ text: found[0], raw: row.view === 'raw' }) });
    if (!params.all) break;
  }
  return findings;
}

/**
 * Checks text bound for the system prompt (memory writes, context files, skills) for prompt injection, exfiltration,
 * hidden HTML and invisible Unicode, in English, Chinese, Japanese and Korean. Matching runs on a normalised copy
 * (NFKC, invisible characters removed, whitespace collapsed, lower case), so inserted zero-width characters or
 * full-width letters do not hide a phrase. Returns the first finding in table order, or undefined when clean.
 */
export function scanForThreats(params: { text: string; source: ThreatSource }): ThreatFinding | undefined {
  return scan({ text: params.text, all: false })[0];
}

/** The stretches of `view` within `window` characters of an anchor occurrence, overlapping ones merged. */
function* anchorWindows(params: { pattern: CompiledPattern; view: string; window: number }): Generator<string> {
  const { view, window } = params;
  const anchorAll = params.pattern.anchorAll;
  anchorAll.lastIndex = 0;
  let start = -1;
  let end = -1;
  for (let hit = anchorAll.exec(view); hit !== null; hit = anchorAll.exec(view)) {
    if (hit[0] === '') anchorAll.lastIndex += 1;
    const from = Math.max(0, hit.index - window);
    const to = Math.min(view.length, hit.index + hit[0].length + window);
    if (start >= 0 && from <= end) {
      end = Math.max(end, to);
      continue;
    }
    if (start >= 0) yield view.slice(start, end);
    start = from;
    end = to;
  }
  if (start >= 0) yield view.slice(start, end);
}

/** A short printable form of a match. */
function describeMatch(params: { text: string; raw: boolean }): string {
  if (params.raw) {
    return [...params.text].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
  }
  return params.text.length > 80 ? `${params.text.slice(0, 77)}...` : params.text;
}
