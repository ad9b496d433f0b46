import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectParams } from '../../../src/jobs/ports.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCronJob, recordAndRefuse, schedulerDeps, startScheduler, withMemoryStore } from '../../helpers/scheduler.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a due time claimed before (another process, a second "run now") is moved past: the loop sleeps instead of spinning', async () => {
  const clock = new FakeClock(T + 1000);
  await withMemoryStore({ clock }, async (store) => {
    const job = createCronJob({ store, name: 'hourly', cron: '0 * * * *', nextRunAt: T });
    // The 10:00 run is claimed already, but the job still says it is due at 10:00 (e.g. "run now" set it back).
    assert.ok(store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR }));
    store.finishRun({ runId: store.runsOf({ jobId: job.id, limit: 1 })[0]?.id ?? 0, outcome: 'delivered', now: T });
    store.updateJob({ jobId: job.id, changes: { nextRunAt: T } });
    const injected: InjectParams[] = [];
    const running = startScheduler(schedulerDeps({ store, clock, inject: recordAndRefuse(injected) }));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(injected.length, 0, 'the claimed time is not run again');
    assert.equal(store.job({ jobId: job.id })?.nextRunAt, T + HOUR, 'the job moved on to its next time');
    assert.ok(clock.pending > 0, 'the loop is asleep on the clock (not spinning)');
    await running.stop();
  });
});
