import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { jobsText } from '../../../src/jobs/actions-format.js';
import { Scheduler } from '../../../src/jobs/scheduler.js';
import type { InjectResult } from '../../../src/gateway/inject.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a run whose turn was refused (the Telegram adapter is not running) says so in the run and in `cron list`, not "nothing to send"', async () => {
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
    const scheduler = new Scheduler({
      store,
      clock,
      logger: pino({ level: 'silent' }),
      inject: (): InjectResult => ({ kind: 'refused', reason: 'no telegram adapter is running' }),
      sendText: async () => ({ ok: false, error: 'unused' }),
      profileName: () => 'work',
      catchUpWindowMs: () => HOUR,
      scrub: (text) => text,
      script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
    });
    const loop = scheduler.run({ signal: controller.signal });
    await clock.advance(2000);
    await new Promise((r) => setTimeout(r, 20));
    const [run] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.equal(run?.outcome, 'delivery_failed');
    assert.equal(run.error, 'telegram:42: no telegram adapter is running');
    assert.match(jobsText({ store }), /delivery_failed: telegram:42: no telegram adapter is running/);
    controller.abort();
    await loop;
  } finally {
    store.close();
  }
});
