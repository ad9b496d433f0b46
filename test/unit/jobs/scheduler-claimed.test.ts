import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { Scheduler } from '../../../src/jobs/scheduler.js';
import type { InjectParams, InjectResult } from '../../../src/gateway/inject.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a due time claimed before (another process, a second "run now") is moved past: the loop sleeps instead of spinning', async () => {
  const clock = new FakeClock(T + 1000);
  const store = openStore({ path: ':memory:', clock });
  const controller = new AbortController();
  try {
    const job = store.createJob({
      name: 'hourly',
      prompt: 'p',
      scheduleText: '0 * * * *',
      schedule: { kind: 'cron', expression: '0 * * * *' },
      timeZone: 'UTC',
      targets: [{ kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true }],
      nextRunAt: T,
    });
    // The 10:00 run is claimed already, but the job still says it is due at 10:00 (e.g. "run now" set it back).
    assert.ok(store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR }));
    store.finishRun({ runId: store.runsOf({ jobId: job.id, limit: 1 })[0]?.id ?? 0, outcome: 'delivered', now: T });
    store.updateJob({ jobId: job.id, changes: { nextRunAt: T } });
    const injected: InjectParams[] = [];
    const scheduler = new Scheduler({
      store,
      clock,
      logger: pino({ level: 'silent' }),
      inject: (p): InjectResult => {
        injected.push(p);
        return { kind: 'refused', reason: 'test' };
      },
      sendText: async () => ({ ok: false, error: 'test' }) as never,
      profileName: () => 'work',
      catchUpWindowMs: () => HOUR,
      scrub: (text) => text,
      script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
    });
    const loop = scheduler.run({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(injected.length, 0, 'the claimed time is not run again');
    assert.equal(store.job({ jobId: job.id })?.nextRunAt, T + HOUR, 'the job moved on to its next time');
    assert.ok(clock.pending > 0, 'the loop is asleep on the clock (not spinning)');
    controller.abort();
    await loop;
  } finally {
    store.close();
  }
});
