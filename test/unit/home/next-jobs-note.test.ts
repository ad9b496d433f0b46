import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { notedNextJobs, noteNextJobs, storeStamp } from '../../../src/cli/next-jobs-note.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { readNextJobs } from '../../../src/store/next-jobs.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';
import { createCronJob } from '../../helpers/scheduler.js';

test('every commit of a running gateway (its store left open, WAL) changes the stamp; the note answers only its own stamp', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-next-jobs-note-'));
  try {
    const profile = resolveProfile({ hermesHome: home });
    assert.equal(storeStamp({ profile }), 'v1 - -', 'no store: nothing to read');
    // Open as the gateway keeps it open: every write lands in state.db-wal until a checkpoint.
    const store = openStore({ path: profile.dbPath, clock: systemClock });
    try {
      const before = storeStamp({ profile });
      const empty = readNextJobs({ path: profile.dbPath });
      assert.deepEqual(empty, { next: undefined, active: 0 });
      noteNextJobs({ profile, stamp: before, jobs: empty });
      assert.deepEqual(notedNextJobs({ profile, stamp: before }), { active: 0 });

      const job = createCronJob({ store, name: 'Disk', cron: '0 8 * * *', nextRunAt: Date.now() + 3_600_000 });
      const afterCreate = storeStamp({ profile });
      assert.notEqual(afterCreate, before, 'a new job changes the stamp');
      assert.equal(notedNextJobs({ profile, stamp: afterCreate }), undefined, 'the old note does not answer for it');
      const one = readNextJobs({ path: profile.dbPath });
      assert.equal(one.next?.name, 'Disk');
      noteNextJobs({ profile, stamp: afterCreate, jobs: one });
      assert.deepEqual(notedNextJobs({ profile, stamp: afterCreate }), one);

      // A change that keeps the row count (a pause) changes it too.
      store.setJobState({ jobId: job.id, state: 'paused' });
      assert.notEqual(storeStamp({ profile }), afterCreate);
      assert.deepEqual(readNextJobs({ path: profile.dbPath }), { next: undefined, active: 0 });
    } finally {
      store.close();
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a garbled note, or one the disk refused, answers nothing', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-next-jobs-note-'));
  try {
    const profile = resolveProfile({ hermesHome: home });
    fs.writeFileSync(path.join(profile.dir, 'next-job.json'), '{"stamp": "v1 - -", "jobs": ');
    assert.equal(notedNextJobs({ profile, stamp: 'v1 - -' }), undefined);
    fs.rmSync(path.join(profile.dir, 'next-job.json'));
    fs.mkdirSync(path.join(profile.dir, 'next-job.json'));
    assert.doesNotThrow(() => noteNextJobs({ profile, stamp: 'v1 - -', jobs: { next: undefined, active: 0 } }));
    assert.equal(notedNextJobs({ profile, stamp: 'v1 - -' }), undefined);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
