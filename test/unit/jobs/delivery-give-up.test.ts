import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { InjectParams, InjectResult } from '../../../src/jobs/ports.js';
import { systemEvent } from '../../../src/jobs/system-turn.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCronJob, schedulerDeps, startScheduler, withMemoryStore } from '../../helpers/scheduler.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a delivery that keeps failing (bot kicked from the chat: 403 on every send) is retried with backoff, then failed after 24 h, not retried forever', async () => {
  const clock = new FakeClock(T - 1000);
  await withMemoryStore({ clock }, async (store) => {
    const job = createCronJob({ store, name: 'daily', cron: '0 10 * * *', nextRunAt: T });
    const injected: InjectParams[] = [];
    let sends = 0;
    const running = startScheduler(
      schedulerDeps({
        store,
        clock,
        logger: pino({ level: process.env['R14_LOG'] ?? 'silent' }),
        inject: (p): InjectResult => {
          injected.push(p);
          // The model answered; the platform refused the reply (a 403 the turn got on its send).
          const end = { outcome: 'undelivered', sessionId: null, text: 'the answer', error: 'Forbidden: bot was kicked from the group chat', messageIds: [] } as const;
          const { row } = store.recordInbound({ event: systemEvent({ ...p, now: clock.now() }), sessionKey: p.sessionKey });
          return { kind: 'finished', inboxId: row.id, end };
        },
        sendText: async () => {
          sends++;
          return { ok: false, error: 'Forbidden: bot was kicked from the group chat' };
        },
      }),
    );
    await clock.advance(2000);
    await new Promise((r) => setTimeout(r, 50));
    const first = store.runsOf({ jobId: job.id, limit: 5 }).find((r) => r.scheduledFor === T);
    assert.equal(first?.outcome, 'delivery_failed', 'the first attempt is delivery_failed');
    assert.ok(first.retryAt !== null && first.retryAt > clock.now(), 'with a retry later');
    // A day and a bit later (the next day's 10:00 run is its own run).
    for (let i = 0; i < 26; i++) {
      await clock.advance(HOUR);
      await new Promise((r) => setTimeout(r, 5));
    }
    const run = store.runsOf({ jobId: job.id, limit: 10 }).find((r) => r.scheduledFor === T);
    assert.ok(run !== undefined);
    assert.ok(run.attempts > 3, `retried with backoff (${run.attempts} attempts)`);
    assert.equal(run.outcome, 'failed', 'after 24 h of failed deliveries the run is failed');
    assert.equal(run.retryAt, null, 'and no retry is left');
    assert.match(run.error ?? '', /gave up/);
    assert.match(run.error ?? '', /kicked/, 'the error says why');
    assert.ok(run.startedAt - T <= 25 * HOUR, 'the last attempt was around the 24 h mark');
    const attempts = run.attempts;
    for (let i = 0; i < 5; i++) await clock.advance(HOUR);
    assert.equal(store.runsOf({ jobId: job.id, limit: 10 }).find((r) => r.scheduledFor === T)?.attempts, attempts, 'no attempt after it failed');
    assert.equal(store.job({ jobId: job.id })?.state, 'active', 'the recurring job goes on with its schedule');
    await running.stop();
  });
});
