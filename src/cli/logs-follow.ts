import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Clock } from '../core/clock.js';
import type { FilePosition } from './logs-tail.js';

/** Bytes read per step. */
const CHUNK = 64 * 1024;

/** The file being followed: an open descriptor, how far it was read, and a partial last line. */
interface Cursor {
  fd: number;
  ino: number;
  position: number;
  partial: Buffer;
}

/** Opens `file` (null when it does not exist yet), starting at `position` when it is still the file with `ino`. */
function open(params: { file: string; from?: FilePosition }): Cursor | null {
  let fd: number;
  try {
    fd = openSync(params.file, 'r');
  } catch {
    return null;
  }
  const { ino } = fstatSync(fd);
  const position = params.from !== undefined && params.from.ino === ino ? params.from.position : 0;
  return { fd, ino, position, partial: Buffer.alloc(0) };
}

/** Reads everything after the cursor, calling `onLine` for each complete line. */
function drain(params: { cursor: Cursor; onLine: (line: string) => void }): void {
  const { cursor } = params;
  const buffer = Buffer.alloc(CHUNK);
  for (;;) {
    const read = readSync(cursor.fd, buffer, 0, CHUNK, cursor.position);
    if (read === 0) return;
    cursor.position += read;
    let data = Buffer.concat([cursor.partial, buffer.subarray(0, read)]);
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10)) {
      params.onLine(data.subarray(0, nl).toString('utf8'));
      data = data.subarray(nl + 1);
    }
    cursor.partial = Buffer.from(data);
  }
}

/** What happened to the path since the cursor was opened. */
function change(params: { file: string; cursor: Cursor }): 'same' | 'replaced' | 'truncated' | 'missing' {
  try {
    const stat = statSync(params.file);
    if (stat.ino !== params.cursor.ino) return 'replaced';
    return stat.size < params.cursor.position ? 'truncated' : 'same';
  } catch {
    return 'missing';
  }
}

/**
 * Follows `file` like `tail -F` from `from` until `signal` aborts: new complete lines go to `onLine`. When the file
 * is rotated away (a new inode at the path), the rest of the old file is read first, then the new one from its
 * start; a file that shrank is read again from its start. A file that does not exist yet is waited for.
 */
export async function followFile(params: { file: string; from?: FilePosition; clock: Clock; signal: AbortSignal; onLine: (line: string) => void; pollMs?: number }): Promise<void> {
  const { file, onLine, signal } = params;
  let cursor = open({ file, ...(params.from ? { from: params.from } : {}) });
  try {
    while (!signal.aborted) {
      if (cursor === null) {
        cursor = open({ file });
      } else {
        drain({ cursor, onLine });
        const what = change({ file, cursor });
        if (what === 'replaced') {
          drain({ cursor, onLine }); // lines written just before the rename
          closeSync(cursor.fd);
          cursor = open({ file });
          continue;
        }
        if (what === 'truncated') cursor = { ...cursor, position: 0, partial: Buffer.alloc(0) };
      }
      try {
        await params.clock.sleep(params.pollMs ?? 250, signal);
      } catch {
        return; // aborted
      }
    }
  } finally {
    if (cursor !== null) closeSync(cursor.fd);
  }
}
