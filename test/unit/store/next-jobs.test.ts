import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { NewJob } from '../../../src/store/job-types.js';
import { readNextJobs } from '../../../src/store/next-jobs.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeTempDir } from './fixtures.js';

const T = Date.parse('2026-12-01T10:00:00Z');

/** A daily job in Berlin whose next run is `nextRunAt`. */
function daily(params: { name: string; nextRunAt: number }): NewJob {
  return {
    name: params.name,
    prompt: 'check the disk',
    scheduleText: '0 8 * * *',
    schedule: { kind: 'cron', expression: '0 8 * * *' },
    timeZone: 'Europe/Berlin',
    targets: [{ kind: 'home', platform: 'telegram' }],
    nextRunAt: params.nextRunAt,
  };
}

test('readNextJobs: the soonest active job and the active count, read without writing the store', () => {
  const { dir, cleanup } = makeTempDir();
  try {
    const file = path.join(dir, 'state.db');
    const store = openStore({ path: file, clock: new FakeClock(T) });
    const later = store.createJob(daily({ name: 'Later', nextRunAt: T + 7_200_000 }));
    const soon = store.createJob(daily({ name: 'Soon', nextRunAt: T + 3_600_000 }));
    const paused = store.createJob(daily({ name: 'Paused', nextRunAt: T + 60_000 }));
    store.setJobState({ jobId: paused.id, state: 'paused' });
    store.close();
    const before = { bytes: readFileSync(file), mtimeMs: statSync(file).mtimeMs };

    const jobs = readNextJobs({ path: file });
    assert.deepEqual(jobs.next, { id: soon.id, name: 'Soon', nextRunAt: T + 3_600_000, timeZone: 'Europe/Berlin' });
    assert.equal(jobs.active, 2, `${later.id} and ${soon.id}; the paused one is not counted`);
    // Read-only: no migration, no checkpoint; the file is as the store left it.
    assert.ok(readFileSync(file).equals(before.bytes));
    assert.equal(statSync(file).mtimeMs, before.mtimeMs);
  } finally {
    cleanup();
  }
});

test('readNextJobs: a store from before the jobs table has none; a missing file is an error, not a new database', () => {
  const { dir, cleanup } = makeTempDir();
  try {
    const old = path.join(dir, 'old.db');
    const db = new Database(old);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
    db.close();
    assert.deepEqual(readNextJobs({ path: old }), { next: undefined, active: 0 });
    const missing = path.join(dir, 'missing.db');
    assert.throws(() => readNextJobs({ path: missing }));
    assert.throws(() => statSync(missing), /ENOENT/);
  } finally {
    cleanup();
  }
});
