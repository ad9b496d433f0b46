import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Bytes read per step when scanning a file backwards. */
const CHUNK = 64 * 1024;

/** Where a file was read up to: the complete lines end at `position` in the file with inode `ino`. */
export interface FilePosition {
  readonly position: number;
  readonly ino: number;
}

/** The last `count` complete lines of `file` and where they end; null when the file does not exist. */
export function lastLines(params: { file: string; count: number }): { lines: string[]; at: FilePosition } | null {
  let fd: number;
  try {
    fd = openSync(params.file, 'r');
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    let start = stat.size;
    let text = '';
    let end: number | undefined;
    // Read backwards until there are count+1 newlines (or the start of the file).
    while (start > 0) {
      const size = Math.min(CHUNK, start);
      start -= size;
      const buffer = Buffer.alloc(size);
      readSync(fd, buffer, 0, size, start);
      text = buffer.toString('latin1') + text;
      if (end === undefined) {
        const lastNewline = text.lastIndexOf('\n');
        if (lastNewline === -1) continue;
        end = start + lastNewline + 1; // a partial last line is left for a follower to finish
      }
      if (countNewlines(text) > params.count) break;
    }
    if (end === undefined) return { lines: [], at: { position: 0, ino: stat.ino } };
    const complete = Buffer.from(text.slice(0, end - start), 'latin1').toString('utf8');
    const lines = complete.split('\n').slice(0, -1);
    return { lines: lines.slice(Math.max(0, lines.length - params.count)), at: { position: end, ino: stat.ino } };
  } finally {
    closeSync(fd);
  }
}

/** How many "\n" are in `text`. */
function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}
