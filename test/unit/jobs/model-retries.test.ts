import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectResult } from '../../../src/jobs/ports.js';
import type { JobRow, RunOutcome } from '../../../src/store/job-types.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCronJob, schedulerDeps, startScheduler, withMemoryStore, type RunningScheduler } from '../../helpers/scheduler.js';

const MINUTE = 60_000;
const T = Date.parse('2026-12-01T10:00:00Z');

/** An attempt whose model could not be reached. */
function modelUnreachable(inboxId: number): InjectResult {
  return { kind: 'finished', inboxId, end: { outcome: 'error', sessionId: null, text: '', error: 'connect ECONNREFUSED', messageIds: [] } };
}

/** An attempt refused because the adapter is down. */
const adapterDown: InjectResult = { kind: 'refused', reason: 'no telegram adapter is running' };

/** A daily job due at T and a running scheduler whose attempt n (1-based) ends as `attempt(n)`; `injected()` counts the attempts. */
function startDaily(params: { store: Store; clock: FakeClock; attempt: (n: number) => InjectResult }): { job: JobRow; running: RunningScheduler; injected: () => number } {
  const job = createCronJob({ store: params.store, name: 'daily', cron: '0 10 * * *', nextRunAt: T });
  let injected = 0;
  const running = startScheduler(
    schedulerDeps({
      store: params.store,
      clock: params.clock,
      inject: (): InjectResult => {
        injected += 1;
        return params.attempt(injected);
      },
    }),
  );
  return { job, running, injected: () => injected };
}

test('a run whose first two attempts failed delivery (adapter down) still gets the 5, 15 and 30 minute model retries before failed', async () => {
  const clock = new FakeClock(T - 1000);
  await withMemoryStore({ clock }, async (store) => {
    // Attempts 1 and 2: the adapter is down (the turn is refused); from attempt 3 on the model is unreachable.
    const { job, running, injected } = startDaily({ store, clock, attempt: (n) => (n <= 2 ? adapterDown : modelUnreachable(n)) });
    /** Each attempt's end: its outcome and how long until it is tried again (null: not again). */
    const ends: { outcome: RunOutcome; retryInMs: number | null; attempts: number; modelAttempts: number }[] = [];
    let seen = 0;
    for (let step = 0; step < 400 && ends.at(-1)?.outcome !== 'failed'; step++) {
      await clock.advance(15_000);
      await new Promise((r) => setTimeout(r, 2));
      const [run] = store.runsOf({ jobId: job.id, limit: 1 });
      if (run === undefined || run.outcome === 'running' || run.attempts === seen) continue;
      seen = run.attempts;
      ends.push({ outcome: run.outcome, retryInMs: run.retryAt === null || run.finishedAt === null ? null : run.retryAt - run.finishedAt, attempts: run.attempts, modelAttempts: run.modelAttempts });
    }
    assert.deepEqual(
      ends.map((e) => e.outcome),
      ['delivery_failed', 'delivery_failed', 'retrying', 'retrying', 'retrying', 'failed'],
      'two delivery failures, three model retries, then failed',
    );
    assert.deepEqual(ends.slice(2).map((e) => e.retryInMs), [5 * MINUTE, 15 * MINUTE, 30 * MINUTE, null]);
    assert.deepEqual(ends.map((e) => e.modelAttempts), [0, 0, 1, 2, 3, 4]);
    assert.equal(injected(), 6);
    const [run] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.equal(run?.error, 'connect ECONNREFUSED');
    await running.stop();
  });
});

test('model retries do not lengthen the delivery backoff: a delivery failure after an unreachable model waits the first delivery delay', async () => {
  const clock = new FakeClock(T - 1000);
  await withMemoryStore({ clock }, async (store) => {
    // Attempts 1-3: the model is unreachable; attempt 4: the adapter is down.
    const { job, running, injected } = startDaily({ store, clock, attempt: (n) => (n >= 4 ? adapterDown : modelUnreachable(n)) });
    for (let step = 0; step < 400 && injected() < 4; step++) {
      await clock.advance(15_000);
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 10));
    const [run] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.equal(run?.outcome, 'delivery_failed');
    assert.equal(run.attempts, 4);
    assert.equal(run.modelAttempts, 3);
    const wait = (run.retryAt ?? 0) - (run.finishedAt ?? 0);
    // The first delivery retry waits 30-60 s (full jitter of one minute); counting the model's attempts it would be 4-8 min.
    assert.ok(wait >= 30_000 && wait <= 60_000, `first delivery backoff, got ${wait} ms`);
    await running.stop();
  });
});
