import fs from 'node:fs';
import path from 'node:path';
import { diskErrorKind, diskReason, errorCode, type DiskReporter } from '../util/disk-error.js';
import { systemClock, type Clock } from '../core/clock.js';
import { LogBacklog } from './log-backlog.js';
import { errorMessage } from '../util/error-text.js';

/** The file calls the stream makes (a test seam: a test can make writes fail like a full disk). */
export interface LogFileOps {
  openSync(file: string, flags: string, mode: number): number;
  writeSync(fd: number, buffer: Buffer, offset: number, length: number): number;
  closeSync(fd: number): void;
}

/** Where lines go while the file cannot be written (process.stderr by default). */
export interface LogFallback {
  write(text: string): unknown;
}

/** How long after a failed write the file is tried again (sooner when the disk watch probes it). */
const retryAfterMs = 5000;

/**
 * A log file destination that rotates by size: the current file is always `file`; when a write would push it
 * past `maxSize`, it becomes `file.1` (older ones shift to `file.2` ...) and only `maxFiles` rotated files are
 * kept. Writes are synchronous, so nothing is lost on a crash and rotation never races a pending write.
 *
 * A write the filesystem refuses (disk full, read-only, I/O error) never throws and never emits an error:
 * the line goes to the fallback (stderr) at once and waits in a bounded backlog; the file is tried again every
 * few seconds (or when `retry` is called) and the backlog is written to it once it takes writes again.
 */
export class RotatingFileStream {
  /** Path of the current log file. */
  readonly file: string;
  private readonly maxSize: number;
  private readonly maxFiles: number;
  private readonly onError: (error: unknown) => void;
  private readonly clock: Clock;
  private readonly reporter: DiskReporter | undefined;
  private readonly fallback: LogFallback | null;
  private readonly notices: LogFallback;
  private readonly ops: LogFileOps;
  private readonly backlog = new LogBacklog();
  private fd: number | undefined;
  private size: number;
  private closed = false;
  /** Set while the file refuses writes: since when, and when to try it again. */
  private failing: { readonly since: number; retryAt: number } | undefined;

  /** Opens (appending to) `file`, creating its folder; the current size counts toward `maxSize`. */
  constructor(params: {
    file: string;
    maxSize: number;
    maxFiles: number;
    /** Called when rotating fails (writing continues in the current file). Defaults to a line on stderr. */
    onError?: (error: unknown) => void;
    /** Paces retries of a file that refused writes. */
    clock?: Clock;
    /** Told when the file refuses writes and when it takes them again. */
    reporter?: DiskReporter;
    /** Where lines go while the file refuses them; null when something else already shows them (a terminal). */
    fallback?: LogFallback | null;
    /** Where the one-line notes go when the file starts and stops refusing writes (default: stderr). */
    notices?: LogFallback;
    /** File calls (tests inject failures). */
    ops?: LogFileOps;
  }) {
    if (!(params.maxSize > 0) || !Number.isInteger(params.maxFiles) || params.maxFiles < 1) {
      throw new RangeError('RotatingFileStream needs maxSize > 0 and an integer maxFiles >= 1');
    }
    this.file = params.file;
    this.maxSize = params.maxSize;
    this.maxFiles = params.maxFiles;
    this.onError = params.onError ?? reportToStderr;
    this.clock = params.clock ?? systemClock;
    this.reporter = params.reporter;
    this.fallback = params.fallback === undefined ? process.stderr : params.fallback;
    this.notices = params.notices ?? process.stderr;
    this.ops = params.ops ?? fs;
    this.size = currentSize({ file: params.file });
    try {
      this.open();
    } catch (error) {
      this.fail({ error });
    }
  }

  /** Appends one chunk (a log line), rotating first when it would not fit. Never throws for a full or broken disk. */
  write(chunk: string): boolean {
    if (this.closed) return false;
    this.backlog.push({ chunk });
    const failing = this.failing;
    if (failing !== undefined && this.clock.now() < failing.retryAt) {
      this.fallback?.write(chunk);
      return true;
    }
    this.drain();
    if (this.failing !== undefined) this.fallback?.write(chunk);
    return true;
  }

  /** Tries the file again now (the disk may have space again); true when it takes writes (and took the backlog). */
  retry(): boolean {
    if (this.closed) return false;
    if (this.failing === undefined) return true;
    this.drain();
    return this.failing === undefined;
  }

  /** Whether the file currently refuses writes. */
  get refusing(): boolean {
    return this.failing !== undefined;
  }

  /** Writes are synchronous: this only calls back. */
  flush(callback?: (error?: Error) => void): void {
    callback?.();
  }

  /** Writes what it still can and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.failing !== undefined) this.drain();
    this.closed = true;
    if (this.backlog.lines > 0) this.notices.write(`hermes: ${this.backlog.lines} log lines never reached ${this.file} (they went to stderr instead)\n`);
    this.closeFd();
  }

  /** Writes the backlog to the file; on a refused write, keeps the rest and marks the file failing. */
  private drain(): void {
    try {
      if (this.fd === undefined) this.open();
      for (let next = this.backlog.peek(); next !== undefined; next = this.backlog.peek()) {
        if (this.size > 0 && this.size + next.length > this.maxSize && this.backlog.atLineStart) this.rotate();
        const fd = this.fd;
        if (fd === undefined) throw new Error('log file is not open');
        const written = this.ops.writeSync(fd, next, 0, next.length);
        if (written <= 0) throw Object.assign(new Error(`wrote nothing to ${this.file}`), { code: 'EIO' });
        this.size += written;
        this.backlog.consume({ bytes: written });
      }
    } catch (error) {
      this.fail({ error });
      return;
    }
    if (this.failing !== undefined) this.recovered();
  }

  private open(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    this.fd = this.ops.openSync(this.file, 'a', 0o600);
  }

  private closeFd(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      this.ops.closeSync(fd);
    } catch {
      // Closing a file on a broken disk can fail too; the descriptor is gone either way.
    }
  }

  private fail(params: { error: unknown }): void {
    const { error } = params;
    // Reopen on the next try: the file may have been replaced, or the filesystem remounted.
    this.closeFd();
    const now = this.clock.now();
    const first = this.failing === undefined;
    this.failing = { since: this.failing?.since ?? now, retryAt: now + retryAfterMs };
    if (!first) return;
    const kind = diskErrorKind({ error, path: path.dirname(this.file) }) ?? 'io';
    const code = errorCode({ error }) || 'error';
    const detail = `the log file cannot be written (${diskReason({ kind })}, ${code})`;
    this.notices.write(`hermes: cannot write the log file ${this.file} (${code}: ${diskReason({ kind })}); logging to stderr until it can\n`);
    this.reporter?.failed({ part: 'log', kind, detail });
  }

  private recovered(): void {
    this.failing = undefined;
    const lost = this.backlog.takeDropped();
    this.notices.write(`hermes: the log file ${this.file} takes writes again${lost > 0 ? ` (${lost} lines logged meanwhile are only on stderr)` : ''}\n`);
    this.reporter?.succeeded({ part: 'log' });
  }

  /** file.(n-1) → file.n ..., file → file.1, then reopens a fresh `file`. */
  private rotate(): void {
    this.closeFd();
    try {
      fs.rmSync(`${this.file}.${this.maxFiles}`, { force: true });
      for (let n = this.maxFiles - 1; n >= 1; n -= 1) {
        const from = `${this.file}.${n}`;
        if (fs.existsSync(from)) fs.renameSync(from, `${this.file}.${n + 1}`);
      }
      fs.renameSync(this.file, `${this.file}.1`);
      this.size = 0;
    } catch (error: unknown) {
      this.onError(error);
      this.size = 0;
    }
    this.open();
  }
}

/** The size of an existing log file (0 when there is none or it cannot be read). */
function currentSize(params: { file: string }): number {
  try {
    const stat = fs.statSync(params.file);
    return stat.isFile() ? stat.size : 0;
  } catch {
    return 0;
  }
}

/** Default rotation error report. */
function reportToStderr(error: unknown): void {
  const reason = errorMessage(error);
  process.stderr.write(`hermes: log rotation failed (${reason}); still writing to the current log file\n`);
}
