import type { Clock } from '../../core/clock.js';
import type { LinearPattern } from './linear-regex.js';

/** Longest part of a line that is tested; the rest of a longer line is not searched. */
export const MAX_SCAN_CHARS = 10_000;
/** Longest a search runs before it stops with what it found. */
export const SEARCH_TIME_LIMIT_MS = 30_000;
/** Longest stretch of matching before other work (timers, sockets) gets a turn. */
const SLICE_MS = 20;
/** Longest matched line shown in full. */
const MAX_LINE_CHARS = 300;

/**
 * Tests lines against a pattern and collects `file:line:text` matches, pausing every few
 * milliseconds so the event loop stays responsive; stops at `max` matches, on abort (throws the
 * signal's reason) or after `timeLimitMs`.
 */
export class LineScan {
  /** Matches found so far, as `file:line:text`. */
  readonly matches: string[] = [];
  private readonly params: { pattern: LinearPattern; max: number; clock: Clock; signal: AbortSignal; timeLimitMs: number };
  private readonly started: number;
  private sliceStart: number;
  private longLines = 0;
  private timedOut = false;

  constructor(params: { pattern: LinearPattern; max: number; clock: Clock; signal: AbortSignal; timeLimitMs?: number }) {
    this.params = { ...params, timeLimitMs: params.timeLimitMs ?? SEARCH_TIME_LIMIT_MS };
    this.started = params.clock.now();
    this.sliceStart = this.started;
  }

  /** Searches one file's text; false once the search must stop (enough matches or out of time). */
  async searchText(params: { text: string; shown: string }): Promise<boolean> {
    const { regex, prepare } = this.params.pattern;
    const lines = params.text.split(/\r?\n/);
    const prepared = prepare(params.text);
    const targets = prepared === params.text ? lines : prepared.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      if (this.params.clock.now() - this.sliceStart >= SLICE_MS && !(await this.pause())) return false;
      let target = targets[i] ?? '';
      if (target.length > MAX_SCAN_CHARS) {
        target = target.slice(0, MAX_SCAN_CHARS);
        this.longLines += 1;
      }
      if (!regex.test(target)) continue;
      const line = lines[i] ?? '';
      const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      this.matches.push(`${params.shown}:${i + 1}:${text.trim()}`);
      if (this.matches.length >= this.params.max) return false;
    }
    return true;
  }

  /** Lets other work run; throws when aborted, false when the time limit is reached. */
  async pause(): Promise<boolean> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.params.signal.throwIfAborted();
    const now = this.params.clock.now();
    if (now - this.started >= this.params.timeLimitMs) {
      this.timedOut = true;
      return false;
    }
    this.sliceStart = now;
    return true;
  }

  /** Bracketed notes on why results may be incomplete, one per line. */
  notes(): string[] {
    const { max, timeLimitMs } = this.params;
    const notes: string[] = [];
    if (this.matches.length >= max) notes.push(`[Stopped at ${max} matches; narrow the pattern, glob or path to see others.]`);
    if (this.timedOut) {
      notes.push(`[Search stopped after ${Math.round(timeLimitMs / 1_000)} s; narrow the glob or path to search fewer files.]`);
    }
    if (this.longLines > 0) {
      notes.push(
        `[${this.longLines} line(s) longer than ${MAX_SCAN_CHARS} characters were searched only in their first ${MAX_SCAN_CHARS}.]`,
      );
    }
    return notes;
  }
}
