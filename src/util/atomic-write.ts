import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** How the temp files of atomic writes start (so leftovers of a killed writer can be told apart and removed). */
export const TEMP_PREFIX = '.memory-tmp-';

/**
 * Replaces `file` with `text` so that a crash at any point leaves either the old or the new file: the text goes to
 * a temp file in the same folder, which is fsynced, renamed over `file`, and then the folder is fsynced (so the
 * rename itself survives a power cut). The temp file is removed when anything fails.
 */
export function writeFileAtomic(params: { file: string; text: string }): void {
  const dir = path.dirname(params.file);
  const temp = path.join(dir, `${TEMP_PREFIX}${path.basename(params.file)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      const bytes = Buffer.from(params.text, 'utf8');
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, params.file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed or never written
    }
    throw error;
  }
  fsyncDir({ dir });
}

/** Flushes a folder's entries (a rename into it) to disk; a filesystem that cannot fsync a folder is let be. */
function fsyncDir(params: { dir: string }): void {
  let fd: number;
  try {
    fd = openSync(params.dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL/EISDIR on filesystems without directory fsync
  } finally {
    closeSync(fd);
  }
}

/** Removes temp files a killed writer left in `dir` (call only while holding the write lock). Returns how many. */
export function removeStaleTemps(params: { dir: string }): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(params.dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    try {
      unlinkSync(path.join(params.dir, name));
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}
