import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jobsText } from '../../../src/jobs/actions-format.js';
import type { InjectResult } from '../../../src/jobs/ports.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCronJob, schedulerDeps, startScheduler, withMemoryStore } from '../../helpers/scheduler.js';

const T = Date.parse('2026-12-01T10:00:00Z');

test('a run whose turn was refused (the Telegram adapter is not running) says so in the run and in `cron list`, not "nothing to send"', async () => {
  const clock = new FakeClock(T - 1000);
  await withMemoryStore({ clock }, async (store) => {
    const job = createCronJob({ store, name: 'daily', cron: '0 10 * * *', nextRunAt: T });
    const running = startScheduler(
      schedulerDeps({ store, clock, inject: (): InjectResult => ({ kind: 'refused', reason: 'no telegram adapter is running' }) }),
    );
    await clock.advance(2000);
    await new Promise((r) => setTimeout(r, 20));
    const [run] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.equal(run?.outcome, 'delivery_failed');
    assert.equal(run.error, 'telegram:42: no telegram adapter is running');
    assert.match(jobsText({ store }), /delivery_failed: telegram:42: no telegram adapter is running/);
    await running.stop();
  });
});
