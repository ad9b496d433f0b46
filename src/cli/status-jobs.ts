import { existsSync } from 'node:fs';
import type { Profile } from '../home/profile.js';
import { systemClock } from '../util/clock.js';

/**
 * `hermes status`'s "  next job: 1a2b3c4d "Bank" at 2026-12-02 09:00 (Europe/Berlin)" line; undefined without active
 * jobs or a store. The store (better-sqlite3) is loaded only for a profile that has one.
 */
export async function nextJobLine(params: { profile: Profile }): Promise<string | undefined> {
  if (!existsSync(params.profile.dbPath)) return undefined;
  try {
    const [{ openStore }, { whenText }] = await Promise.all([import('../store/sqlite-store.js'), import('../jobs/actions-format.js')]);
    const store = openStore({ path: params.profile.dbPath, clock: systemClock });
    try {
      const active = store.listJobs({ states: ['active'] }).filter((job) => job.nextRunAt !== null);
      const next = active.sort((a, b) => (a.nextRunAt ?? 0) - (b.nextRunAt ?? 0))[0];
      if (next === undefined || next.nextRunAt === null) return undefined;
      const more = active.length > 1 ? ` (${active.length} active jobs)` : '';
      return `  next job: ${next.id} "${next.name}" at ${whenText({ atMs: next.nextRunAt, timeZone: next.timeZone })}${more}`;
    } finally {
      store.close();
    }
  } catch (error) {
    return `  next job: unknown (the store could not be read: ${error instanceof Error ? error.message : String(error)})`;
  }
}
