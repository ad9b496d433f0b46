import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { pino } from 'pino';

/** The sonic-boom stream pino.destination() returns. */
type FileSink = ReturnType<typeof pino.destination>;

/**
 * A log file destination that rotates by size: the current file is always `file`; when a write would
 * push it past `maxSize`, it becomes `file.1` (older ones shift to `file.2` ...) and only `maxFiles`
 * rotated files are kept. Writes are synchronous (as with pino.destination's default), so nothing is
 * lost on a crash and rotation never races a pending write.
 */
export class RotatingFileStream {
  /** Path of the current log file. */
  readonly file: string;
  private readonly maxSize: number;
  private readonly maxFiles: number;
  private readonly onError: (error: unknown) => void;
  private readonly sink: FileSink;
  private size: number;
  private closed = false;

  /** Opens (appending to) `file`, creating its folder; the current size counts toward `maxSize`. */
  constructor(params: {
    file: string;
    maxSize: number;
    maxFiles: number;
    /** Called when rotating fails (writing continues in the current file). Defaults to a line on stderr. */
    onError?: (error: unknown) => void;
  }) {
    if (!(params.maxSize > 0) || !Number.isInteger(params.maxFiles) || params.maxFiles < 1) {
      throw new RangeError('RotatingFileStream needs maxSize > 0 and an integer maxFiles >= 1');
    }
    this.file = params.file;
    this.maxSize = params.maxSize;
    this.maxFiles = params.maxFiles;
    this.onError = params.onError ?? reportToStderr;
    this.size = existsSync(params.file) ? statSync(params.file).size : 0;
    this.sink = pino.destination({ dest: params.file, sync: true, mkdir: true, append: true, mode: 0o600 });
  }

  /** Appends one chunk (a log line), rotating first when it would not fit. */
  write(chunk: string): boolean {
    if (this.closed) return false;
    const bytes = Buffer.byteLength(chunk);
    if (this.size > 0 && this.size + bytes > this.maxSize) this.rotate();
    this.size += bytes;
    return this.sink.write(chunk);
  }

  /** Flushes buffered data (writes are synchronous, so this only calls back). */
  flush(callback?: (error?: Error) => void): void {
    if (this.closed) {
      callback?.();
      return;
    }
    this.sink.flush(callback);
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const done = new Promise<void>((resolve) => this.sink.once('close', () => resolve()));
    this.sink.flushSync();
    this.sink.end();
    await done;
  }

  /** file.(n-1) → file.n ..., file → file.1, then reopens a fresh `file`. */
  private rotate(): void {
    try {
      this.sink.flushSync();
      rmSync(`${this.file}.${this.maxFiles}`, { force: true });
      for (let n = this.maxFiles - 1; n >= 1; n -= 1) {
        const from = `${this.file}.${n}`;
        if (existsSync(from)) renameSync(from, `${this.file}.${n + 1}`);
      }
      renameSync(this.file, `${this.file}.1`);
      this.sink.reopen();
    } catch (error: unknown) {
      this.onError(error);
    }
    this.size = 0;
  }
}

/** Default rotation error report. */
function reportToStderr(error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`hermes: log rotation failed (${reason}); still writing to the current log file\n`);
}
