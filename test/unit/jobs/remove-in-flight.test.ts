import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { removeJobAction } from '../../../src/jobs/actions.js';
import type { InjectedTurnEnd, InjectParams, InjectResult } from '../../../src/jobs/ports.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCronJob, schedulerDeps, startScheduler, telegramDm, withMemoryStore } from '../../helpers/scheduler.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a job removed while its run is in flight: the run ends quietly (no error, nothing sent to its other targets), and it never runs again', async () => {
  const clock = new FakeClock(T - 1000);
  const lines: Array<{ level: number; msg: string }> = [];
  await withMemoryStore({ clock }, async (store) => {
    const job = createCronJob({
      store,
      name: 'hourly',
      cron: '0 * * * *',
      nextRunAt: T,
      targets: [telegramDm({ chatId: '42' }), telegramDm({ chatId: '43', origin: false })],
    });
    const injected: InjectParams[] = [];
    let end: (value: InjectedTurnEnd) => void = () => undefined;
    const sends: string[] = [];
    const running = startScheduler(
      schedulerDeps({
        store,
        clock,
        logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
        inject: (p): InjectResult => {
          injected.push(p);
          return { kind: 'queued', inboxId: 1, finished: new Promise((resolve) => (end = resolve)) };
        },
        sendText: async (p) => {
          sends.push(p.chat.id);
          return { ok: true, messageIds: ['m2'] };
        },
      }),
    );
    await clock.advance(2000);
    assert.equal(injected.length, 1, 'the run is in flight');
    const removed = removeJobAction({ deps: { store, timeZone: 'UTC', clock, poke: () => running.scheduler.poke() }, jobId: job.id });
    assert.ok(removed.ok);
    end({ outcome: 'delivered', sessionId: null, text: 'the answer', messageIds: ['m1'] });
    await clock.advance(2 * HOUR);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(sends, [], 'the other target gets nothing from a removed job');
    assert.equal(injected.length, 1, 'no further run');
    const errors = lines.filter((l) => l.level >= 50);
    assert.deepEqual(errors.map((l) => l.msg), [], 'no error is logged');
    assert.ok(lines.some((l) => /removed while its run was in flight/.test(l.msg)), 'one info line says what happened');
    await running.stop();
  });
});
