import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from './connection.js';

/** A profile's soonest active job, as `hermes status` shows it. */
export interface NextJob {
  readonly id: string;
  readonly name: string;
  readonly nextRunAt: number;
  readonly timeZone: string;
}

/** The soonest active job with a next run, and how many active jobs have one; none without a jobs table. */
export interface NextJobs {
  readonly next: NextJob | undefined;
  readonly active: number;
}

/**
 * Reads the soonest active job of the store at `path` over a read-only connection: no migration, no statements
 * prepared but this one, no WAL checkpoint on close (openStore does all three, which a status line does not need and
 * which would write to a running gateway's database). A store from before the jobs table (migration 6) has none.
 * Rows are counted as stored: a job whose schedule the gateway cannot read is counted too (the gateway logs it).
 * Throws what better-sqlite3 throws (a file that is not a database, a disk that refuses even to read).
 */
export function readNextJobs(params: { path: string }): NextJobs {
  const db = new Database(params.path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const table = db.prepare<[], number>("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'").pluck().get();
    if (table === undefined) return { next: undefined, active: 0 };
    const rows = db
      .prepare<[], { id: string; name: string; next_run_at: number; time_zone: string }>(
        "SELECT id, name, next_run_at, time_zone FROM jobs WHERE state = 'active' AND next_run_at IS NOT NULL ORDER BY next_run_at, id",
      )
      .all();
    const first = rows[0];
    return { next: first === undefined ? undefined : { id: first.id, name: first.name, nextRunAt: first.next_run_at, timeZone: first.time_zone }, active: rows.length };
  } finally {
    db.close();
  }
}
