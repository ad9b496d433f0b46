import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { removeJobAction } from '../../../src/jobs/actions.js';
import { Scheduler } from '../../../src/jobs/scheduler.js';
import type { InjectedTurnEnd, InjectParams, InjectResult } from '../../../src/gateway/inject.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

test('a job removed while its run is in flight: the run ends quietly (no error, nothing sent to its other targets), and it never runs again', async () => {
  const clock = new FakeClock(T - 1000);
  const store = openStore({ path: ':memory:', clock });
  const controller = new AbortController();
  const lines: Array<{ level: number; msg: string }> = [];
  try {
    const job = store.createJob({
      name: 'hourly',
      prompt: 'p',
      scheduleText: '0 * * * *',
      schedule: { kind: 'cron', expression: '0 * * * *' },
      timeZone: 'UTC',
      targets: [
        { kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true },
        { kind: 'chat', platform: 'telegram', chat: { id: '43', kind: 'dm' }, origin: false },
      ],
      nextRunAt: T,
    });
    const injected: InjectParams[] = [];
    let end: (value: InjectedTurnEnd) => void = () => undefined;
    const sends: string[] = [];
    const scheduler = new Scheduler({
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
      profileName: () => 'work',
      catchUpWindowMs: () => HOUR,
      scrub: (text) => text,
      script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
    });
    const loop = scheduler.run({ signal: controller.signal });
    await clock.advance(2000);
    assert.equal(injected.length, 1, 'the run is in flight');
    const removed = removeJobAction({ deps: { store, timeZone: 'UTC', clock, poke: () => scheduler.poke() }, jobId: job.id });
    assert.ok(removed.ok);
    end({ outcome: 'delivered', sessionId: null, text: 'the answer', messageIds: ['m1'] });
    await clock.advance(2 * HOUR);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(sends, [], 'the other target gets nothing from a removed job');
    assert.equal(injected.length, 1, 'no further run');
    const errors = lines.filter((l) => l.level >= 50);
    assert.deepEqual(errors.map((l) => l.msg), [], 'no error is logged');
    assert.ok(lines.some((l) => /removed while its run was in flight/.test(l.msg)), 'one info line says what happened');
    controller.abort();
    await loop;
  } finally {
    store.close();
  }
});
