import { existsSync } from 'node:fs';
import { notedNextJobs, noteNextJobs, storeStamp } from './next-jobs-note.js';
import type { Profile } from '../home/profile.js';
import { errorMessage } from '../util/error-text.js';

/**
 * `hermes status`'s "  next job: 1a2b3c4d "Bank" at 2026-12-02 09:00 (Europe/Berlin)" line; undefined without active
 * jobs or a store. better-sqlite3 is loaded only for a profile that has a store whose files changed since the last
 * status read it (home/next-jobs-note.ts), which is then read with one query over a read-only connection
 * (src/store/next-jobs.ts), not opened as the gateway opens it.
 */
export async function nextJobLine(params: { profile: Profile }): Promise<string | undefined> {
  const { profile } = params;
  if (!existsSync(profile.dbPath)) return undefined;
  try {
    const stamp = storeStamp({ profile });
    let jobs = notedNextJobs({ profile, stamp });
    if (jobs === undefined) {
      const { readNextJobs } = await import('../store/next-jobs.js');
      jobs = readNextJobs({ path: profile.dbPath });
      noteNextJobs({ profile, stamp, jobs });
    }
    const { next, active } = jobs;
    if (next === undefined) return undefined;
    const { whenText } = await import('../jobs/actions-format.js');
    const more = active > 1 ? ` (${active} active jobs)` : '';
    return `  next job: ${next.id} "${next.name}" at ${whenText({ atMs: next.nextRunAt, timeZone: next.timeZone })}${more}`;
  } catch (error) {
    return `  next job: unknown (the store could not be read: ${errorMessage(error)})`;
  }
}
