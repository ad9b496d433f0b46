import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { MemoryCapability, MemoryTarget, MemoryWrite } from './capability.js';
import { ToolError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import { whenAborted } from '../util/when-aborted.js';
import { applyWrite } from './apply.js';
import { removeStaleTemps, writeFileAtomic } from '../util/atomic-write.js';
import { contentProblem, type ContainsSecret } from './checks.js';
import { entriesChars, parseEntries, serializeEntries, usageText } from './format.js';
import { acquireLock, LockBusyError, type HeldLock, type LockTiming } from './lock.js';
import { targetInfo, type MemorySettings, type TargetInfo } from './settings.js';

/** Name of the lock file in memories/ that one writer at a time holds (both files, all processes of the profile). */
export const LOCK_FILE_NAME = '.memory-write.lock';

/** One memory file as it is on disk now. */
export interface MemoryFileView extends TargetInfo {
  /** Absolute path of the file. */
  readonly path: string;
  /** Its entries (exact duplicates dropped, first kept). */
  readonly entries: readonly string[];
  /** Characters the entries use (what the limit counts). */
  readonly used: number;
}

/** Entries of a file on disk; none when it does not exist. Duplicates are dropped (Hermes does the same on load). */
function readEntriesOf(params: { file: string }): string[] {
  let text: string;
  try {
    text = readFileSync(params.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return [...new Set(parseEntries({ text }))];
}

/**
 * One profile's memory files (memories/MEMORY.md and USER.md, Hermes's format), the `memory` tool's capability.
 * Every write is checked (format, threat scan, secrets), applied to the file as re-read under the write lock (an
 * in-process queue, then a lock file shared with every other process of the profile) and saved atomically at once.
 */
export class MemoryFiles implements MemoryCapability {
  /** The memories/ folder. */
  readonly dir: string;
  /** The settings (switches and limits) the files are checked against. */
  readonly settings: MemorySettings;
  private readonly containsSecret: ContainsSecret;
  private readonly clock: Clock;
  private readonly lockTiming: LockTiming;
  private readonly logger: Logger | undefined;
  /** The end of the in-process queue of lock holders. */
  private tail: Promise<void> = Promise.resolve();

  constructor(params: { memoriesDir: string; settings: MemorySettings; containsSecret: ContainsSecret; clock: Clock; lock?: LockTiming; logger?: Logger }) {
    this.dir = params.memoriesDir;
    this.settings = params.settings;
    this.containsSecret = params.containsSecret;
    this.clock = params.clock;
    this.lockTiming = params.lock ?? {};
    this.logger = params.logger;
  }

  /** The file, limit and switch of a target. */
  info(params: { target: MemoryTarget }): TargetInfo {
    return targetInfo({ settings: this.settings, target: params.target });
  }

  /** Absolute path of a target's file. */
  fileOf(params: { target: MemoryTarget }): string {
    return path.join(this.dir, this.info(params).fileName);
  }

  /** A target's file as it is now (no lock needed: writes replace it atomically). */
  read(params: { target: MemoryTarget }): MemoryFileView {
    const file = this.fileOf(params);
    const entries = readEntriesOf({ file });
    return { ...this.info(params), path: file, entries, used: entriesChars({ entries }) };
  }

  /** Applies one write of the `memory` tool; resolves to the text for the model, throws ToolError when refused. */
  async write(params: MemoryWrite & { signal: AbortSignal }): Promise<string> {
    const info = this.info(params);
    if (!info.enabled) {
      throw new ToolError(`${info.fileName} (target "${info.target}") is turned off for this profile (${info.enableKey}: false); nothing was saved.`);
    }
    if (params.action !== 'remove' && params.content !== undefined) {
      const problem = contentProblem({ text: params.content, fileName: info.fileName, containsSecret: this.containsSecret });
      if (problem !== undefined) {
        this.logger?.warn({ target: info.target, action: params.action }, 'memory write refused by the content check');
        throw new ToolError(`Refused, nothing was saved: ${problem}.`);
      }
    }
    return this.withLock({
      signal: params.signal,
      fn: () => {
        const file = this.fileOf(params);
        const entries = readEntriesOf({ file });
        const outcome = applyWrite({ entries, write: params, limit: info.limit, fileName: info.fileName });
        if (!outcome.ok) {
          this.logger?.info({ target: info.target, action: params.action }, 'memory write refused (limit, or old_text matched no or several entries)');
          throw new ToolError(outcome.reason);
        }
        if (outcome.changed) this.save({ file, entries: outcome.entries });
        const usage = `${info.fileName} now holds ${outcome.entries.length} entr${outcome.entries.length === 1 ? 'y' : 'ies'}, ${usageText({ used: entriesChars({ entries: outcome.entries }), limit: info.limit })}.`;
        this.logger?.info({ target: info.target, action: params.action, changed: outcome.changed, entries: outcome.entries.length }, 'memory write');
        if (!outcome.changed) return `${outcome.summary} ${usage}`;
        return (
          `${outcome.summary} Saved to disk now; ${usage} ` +
          "It shows in the system prompt from the next session on: this session's prompt stays as it was, on purpose, " +
          'so the write did not fail. Do not repeat it.'
        );
      },
    });
  }

  /**
   * Runs `fn` as the one writer of the profile's memory: after earlier writers of this process (in order), holding
   * the lock file against other processes. Temp files a killed writer left are removed first. Waiting aborts with
   * `signal`; a lock held longer than the wait gives a ToolError naming its holder.
   */
  async withLock<T>(params: { signal: AbortSignal; fn: () => T | Promise<T> }): Promise<T> {
    const { signal } = params;
    const before = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((resolve) => (done = resolve));
    try {
      await Promise.race([before, whenAborted({ signal })]);
      signal.throwIfAborted();
    } catch (error) {
      void before.then(done);
      throw error;
    }
    try {
      mkdirSync(this.dir, { recursive: true });
      let lock: HeldLock;
      try {
        lock = await acquireLock({ file: path.join(this.dir, LOCK_FILE_NAME), clock: this.clock, signal, ...this.lockTiming });
      } catch (error) {
        if (!(error instanceof LockBusyError)) throw error;
        const who = error.holderPid === undefined ? 'another process' : `process ${error.holderPid}`;
        this.logger?.warn({ holderPid: error.holderPid }, 'memory write lock busy; write refused');
        throw new ToolError(`The memory files are being changed by ${who} (perhaps \`hermes memory edit\`); nothing was saved. Try again in a moment.`);
      }
      try {
        removeStaleTemps({ dir: this.dir });
        return await params.fn();
      } finally {
        lock.release();
      }
    } finally {
      done();
    }
  }

  /** Replaces a target's file with `entries` (call inside withLock). */
  save(params: { file: string; entries: readonly string[] }): void {
    try {
      writeFileAtomic({ file: params.file, text: serializeEntries({ entries: params.entries }) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      this.logger?.warn({ file: path.basename(params.file), code }, 'memory file not saved');
      throw new ToolError(`${path.basename(params.file)} could not be saved (${code}); it is unchanged.`);
    }
  }
}
