import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { NextJobs } from '../store/next-jobs.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { Profile } from '../home/profile.js';

/**
 * A note of what `hermes status` last read as a profile's next job, kept with the size and modification time (in
 * nanoseconds) of state.db and its write-ahead log at that read: while neither file changed, no job changed either
 * (every commit writes the log, a checkpoint the database), so status answers from the note without loading
 * better-sqlite3 and preparing a query, most of what a store costs it. The files are looked at before the read, so a
 * write that lands during it gives the next status another stamp and a fresh read.
 */

/** The note's file, beside gateway.json and config-valid.json. */
function notePath(params: { profile: Profile }): string {
  return path.join(params.profile.dir, 'next-job.json');
}

/** Bumped when the note's shape (NextJobs) changes. */
const FORMAT = 1;

/** "size:mtime-ns:inode" of a file, or "-" when it does not exist (or is empty, where `emptyIsNone`). */
function fileStamp(params: { file: string; emptyIsNone: boolean }): string {
  try {
    const stat = statSync(params.file, { bigint: true });
    return params.emptyIsNone && stat.size === 0n ? '-' : `${stat.size}:${stat.mtimeNs}:${stat.ino}`;
  } catch {
    return '-';
  }
}

/**
 * The stamp of the profile's store as it is now: state.db's and its -wal's size, modification time and inode. An
 * empty log holds nothing: the first read-only reader creates one, and a writer's checkpoint on close truncates it
 * (changing state.db), so it stamps as no log at all.
 */
export function storeStamp(params: { profile: Profile }): string {
  const db = fileStamp({ file: params.profile.dbPath, emptyIsNone: false });
  const wal = fileStamp({ file: `${params.profile.dbPath}-wal`, emptyIsNone: true });
  return `v${FORMAT} ${db} ${wal}`;
}

/** What the note says for this stamp; undefined when there is none, it is for another stamp, or it cannot be read. */
export function notedNextJobs(params: { profile: Profile; stamp: string }): NextJobs | undefined {
  try {
    const note = JSON.parse(readFileSync(notePath(params), 'utf8')) as { stamp?: unknown; jobs?: NextJobs };
    return note.stamp === params.stamp && note.jobs !== undefined ? note.jobs : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps what was read under the stamp taken before the read. A disk that refuses the note is let be. */
export function noteNextJobs(params: { profile: Profile; stamp: string; jobs: NextJobs }): void {
  try {
    writeFileAtomic({ file: notePath(params), text: `${JSON.stringify({ stamp: params.stamp, jobs: params.jobs })}\n` });
  } catch {
    // full, read-only or gone: the next status reads the store again
  }
}
