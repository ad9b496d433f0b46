import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { InjectResult } from '../../../src/gateway/inject.js';
import type { RunOutcome } from '../../../src/jobs/job-types.js';
import { Scheduler } from '../../../src/jobs/scheduler.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const MINUTE = 60_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a run whose first two attempts failed delivery (adapter down) still gets the 5, 15 and 30 minute model retries before failed', async () => {
  const clock = new FakeClock(T - 1000);
  const store = openStore({ path: ':memory:', clock });
  const controller = new AbortController();
  try {
    const job = store.createJob({
      name: 'daily',
      prompt: 'p',
      scheduleText: '0 10 * * *',
      schedule: { kind: 'cron', expression: '0 10 * * *' },
      timeZone: 'UTC',
      targets: [{ kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true }],
      nextRunAt: T,
    });
    let injected = 0;
    const scheduler = new Scheduler({
      store,
      clock,
      logger: pino({ level: 'silent' }),
      // Attempts 1 and 2: the adapter is down (the turn is refused); from attempt 3 on the model is unreachable.
      inject: (): InjectResult => {
        injected += 1;
        if (injected <= 2) return { kind: 'refused', reason: 'no telegram adapter is running' };
        return { kind: 'finished', inboxId: injected, end: { outcome: 'error', sessionId: null, text: '', error: 'connect ECONNREFUSED', messageIds: [] } };
      },
      sendText: async () => ({ ok: false, error: 'unused' }),
      profileName: () => 'work',
      catchUpWindowMs: () => 60 * MINUTE,
      scrub: (text) => text,
      script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
    });
    const loop = scheduler.run({ signal: controller.signal });
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
    assert.equal(injected, 6);
    const [run] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.equal(run?.error, 'connect ECONNREFUSED');
    controller.abort();
    await loop;
  } finally {
    store.close();
  }
});

test('model retries do not lengthen the delivery backoff: a delivery failure after an unreachable model waits the first delivery delay', async () => {
  const clock = new FakeClock(T - 1000);
  const store = openStore({ path: ':memory:', clock });
  const controller = new AbortController();
  try {
    const job = store.createJob({
      name: 'daily',
      prompt: 'p',
      scheduleText: '0 10 * * *',
      schedule: { kind: 'cron', expression: '0 10 * * *' },
      timeZone: 'UTC',
      targets: [{ kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true }],
      nextRunAt: T,
    });
    let injected = 0;
    const scheduler = new Scheduler({
      store,
      clock,
      logger: pino({ level: 'silent' }),
      // Attempts 1-3: the model is unreachable; attempt 4: the adapter is down.
      inject: (): InjectResult => {
        injected += 1;
        if (injected >= 4) return { kind: 'refused', reason: 'no telegram adapter is running' };
        return { kind: 'finished', inboxId: injected, end: { outcome: 'error', sessionId: null, text: '', error: 'connect ECONNREFUSED', messageIds: [] } };
      },
      sendText: async () => ({ ok: false, error: 'unused' }),
      profileName: () => 'work',
      catchUpWindowMs: () => 60 * MINUTE,
      scrub: (text) => text,
      script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
    });
    const loop = scheduler.run({ signal: controller.signal });
    for (let step = 0; step < 400 && injected < 4; step++) {
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
    controller.abort();
    await loop;
  } finally {
    store.close();
  }
});
