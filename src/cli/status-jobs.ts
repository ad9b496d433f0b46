import { existsSync } from 'node:fs';
import type { Profile } from '../home/profile.js';

/**
 * `hermes status`'s "  next job: 1a2b3c4d "Bank" at 2026-12-02 09:00 (Europe/Berlin)" line; undefined without active
 * jobs or a store. better-sqlite3 is loaded only for a profile that has a store, which is read with one query over a
 * read-only connection (src/store/next-jobs.ts), not opened as the gateway opens it.
 */
export async function nextJobLine(params: { profile: Profile }): Promise<string | undefined> {
  if (!existsSync(params.profile.dbPath)) return undefined;
  try {
    const [{ readNextJobs }, { whenText }] = await Promise.all([import('../store/next-jobs.js'), import('../jobs/actions-format.js')]);
    const { next, active } = readNextJobs({ path: params.profile.dbPath });
    if (next === undefined) return undefined;
    const more = active > 1 ? ` (${active} active jobs)` : '';
    return `  next job: ${next.id} "${next.name}" at ${whenText({ atMs: next.nextRunAt, timeZone: next.timeZone })}${more}`;
  } catch (error) {
    return `  next job: unknown (the store could not be read: ${error instanceof Error ? error.message : String(error)})`;
  }
}
