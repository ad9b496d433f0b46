import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { processAlive, processStartTicks } from '../home/pid-lock.js';
import type { Clock } from '../core/clock.js';

/** Who holds a lock file, as written inside it. */
export interface LockHolder {
  readonly pid: number;
  /** The holder's process start (/proc), so a pid reused by another process is not mistaken for the holder. */
  readonly start?: string;
  /** Tells two holders in one process apart (and a lock we still own from one taken over). */
  readonly token: string;
  /** When the holder last said it is alive (clock ms); refreshed while the lock is held. */
  readonly at: number;
}

/** A lock this process holds; `release` removes the file when it is still ours. */
export interface HeldLock {
  readonly holder: LockHolder;
  release(): void;
}

/** The lock stayed held by a live process for longer than the caller would wait. */
export class LockBusyError extends Error {
  override readonly name = 'LockBusyError';
  /** The process that holds it (when its file could be read). */
  readonly holderPid: number | undefined;
  constructor(params: { file: string; holderPid: number | undefined; waitedMs: number }) {
    const who = params.holderPid === undefined ? 'another process' : `process ${params.holderPid}`;
    super(`${path.basename(params.file)} is held by ${who}; waited ${Math.round(params.waitedMs / 1000)}s`);
    this.holderPid = params.holderPid;
  }
}

/** How a lock is taken: how long a holder may stay silent before it counts as gone, how long to wait, how often to look. */
export interface LockTiming {
  /** A lock whose holder has not refreshed it for this long is taken over (30 s). */
  readonly staleMs?: number;
  /** Longest wait for a live holder before LockBusyError (10 s). */
  readonly waitMs?: number;
  /** Pause between two attempts (20 ms, plus up to as much again at random). */
  readonly pollMs?: number;
}

const DEFAULT_STALE_MS = 30_000;
const DEFAULT_WAIT_MS = 10_000;
const DEFAULT_POLL_MS = 20;
/** A takeover marker older than this was left by a process killed while breaking a lock (that takes microseconds). */
const BREAKER_STALE_MS = 5_000;

interface SeenLock {
  readonly raw: string;
  readonly holder: LockHolder | undefined;
  readonly mtimeMs: number;
}

/**
 * Takes the lock file `file`, one holder at a time across processes: created with O_EXCL with the holder's pid
 * inside. A lock whose holder is dead (pid gone, or reused by a process with another start), or silent for longer
 * than `staleMs`, is taken over; the holder refreshes its file every staleMs/3 while it holds it. Waits for a live
 * holder up to `waitMs` (LockBusyError after), and rejects with the signal's reason when aborted.
 */
export async function acquireLock(params: { file: string; clock: Clock; signal: AbortSignal } & LockTiming): Promise<HeldLock> {
  const { file, clock, signal } = params;
  const staleMs = params.staleMs ?? DEFAULT_STALE_MS;
  const waitMs = params.waitMs ?? DEFAULT_WAIT_MS;
  const pollMs = params.pollMs ?? DEFAULT_POLL_MS;
  const started = clock.now();
  mkdirSync(path.dirname(file), { recursive: true });
  for (;;) {
    signal.throwIfAborted();
    const held = tryCreate({ file, clock, staleMs });
    if (held !== undefined) return held;
    const seen = readLock({ file });
    if (seen === undefined) continue; // released between our attempt and the read
    if (isStale({ seen, now: clock.now(), staleMs }) && breakStale({ file, seen, now: clock.now() })) continue;
    if (clock.now() - started >= waitMs) throw new LockBusyError({ file, holderPid: seen.holder?.pid, waitedMs: clock.now() - started });
    await clock.sleep(pollMs + Math.floor(Math.random() * pollMs), signal);
  }
}

/** Creates the lock file if nobody holds it; undefined when it exists. */
function tryCreate(params: { file: string; clock: Clock; staleMs: number }): HeldLock | undefined {
  let fd: number;
  try {
    fd = openSync(params.file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  const start = processStartTicks({ pid: process.pid });
  const token = randomBytes(8).toString('hex');
  const holderAt = (at: number): LockHolder => ({ pid: process.pid, ...(start !== undefined ? { start } : {}), token, at });
  const write = (holder: LockHolder): void => {
    const bytes = Buffer.from(`${JSON.stringify(holder)}\n`, 'utf8');
    ftruncateSync(fd, 0);
    writeSync(fd, bytes, 0, bytes.length, 0);
  };
  const holder = holderAt(params.clock.now());
  try {
    write(holder);
  } catch (error) {
    closeSync(fd);
    unlinkSync(params.file);
    throw error;
  }
  const heartbeat = setInterval(() => {
    try {
      write(holderAt(params.clock.now()));
    } catch {
      // a full disk: the holder keeps the lock until it goes stale
    }
  }, Math.max(10, Math.floor(params.staleMs / 3)));
  heartbeat.unref();
  let released = false;
  return {
    holder,
    release: () => {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      closeSync(fd);
      if (readLock({ file: params.file })?.holder?.token === token) {
        try {
          unlinkSync(params.file);
        } catch {
          // already gone
        }
      }
    },
  };
}

/** The lock file's content and age; undefined when there is none. */
function readLock(params: { file: string }): SeenLock | undefined {
  try {
    const raw = readFileSync(params.file, 'utf8');
    const mtimeMs = statSync(params.file).mtimeMs;
    return { raw, holder: parseHolder({ raw }), mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The holder a lock file names; undefined for an empty or torn file. */
function parseHolder(params: { raw: string }): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(params.raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, start, token, at } = value as Record<string, unknown>;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || typeof token !== 'string' || typeof at !== 'number') return undefined;
    return { pid, token, at, ...(typeof start === 'string' ? { start } : {}) };
  } catch {
    return undefined;
  }
}

/** True when the lock's holder is gone: dead pid, a pid now used by another process, or silent past `staleMs`. */
function isStale(params: { seen: SeenLock; now: number; staleMs: number }): boolean {
  const { holder } = params.seen;
  // A file without a readable holder: its writer died between creating and filling it, or it is being refreshed.
  if (holder === undefined) return params.now - params.seen.mtimeMs > params.staleMs;
  if (!processAlive({ pid: holder.pid })) return true;
  if (holder.start !== undefined) {
    const start = processStartTicks({ pid: holder.pid });
    if (start !== undefined && start !== holder.start) return true;
  }
  return params.now - holder.at > params.staleMs;
}

/**
 * Removes a stale lock, guarded by a second O_EXCL file so two processes that both saw it stale cannot remove
 * each other's fresh lock: under the guard the file is read again and removed only if it is still the stale one.
 * False when another process is breaking it now.
 */
function breakStale(params: { file: string; seen: SeenLock; now: number }): boolean {
  const breaker = `${params.file}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (params.now - statSync(breaker).mtimeMs > BREAKER_STALE_MS) unlinkSync(breaker);
    } catch {
      // removed by its owner meanwhile
    }
    return false;
  }
  try {
    const again = readLock({ file: params.file });
    if (again !== undefined && again.raw === params.seen.raw) unlinkSync(params.file);
    return true;
  } finally {
    closeSync(fd);
    try {
      unlinkSync(breaker);
    } catch {
      // taken for a leftover by another process (only after BREAKER_STALE_MS)
    }
  }
}
