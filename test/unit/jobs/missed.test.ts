import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectParams } from '../../../src/jobs/ports.js';
import type { SchedulerDeps } from '../../../src/jobs/scheduler.js';
import { jobsShortText, jobsText } from '../../../src/jobs/actions-format.js';
import { until } from '../../helpers/converse.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { recordAndRefuse, schedulerDeps, startScheduler, telegramDm, withMemoryStore } from '../../helpers/scheduler.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T19:11:00Z');

test('a missed one-shot: listed [missed] with due time, return time and window; its chat told once per skipped run, a failed notice tried again at the next start', async () => {
  const clock = new FakeClock(T + 3 * 60_000 + 2 * HOUR);
  await withMemoryStore({ clock }, async (store) => {
    const job = store.createJob({
      name: 'Call the dentist',
      prompt: 'Remind me to call the dentist.',
      scheduleText: 'once',
      schedule: { kind: 'once', atMs: T },
      timeZone: 'Europe/Berlin',
      targets: [telegramDm(), { kind: 'home', platform: 'slack' }],
      nextRunAt: T,
    });
    const injected: InjectParams[] = [];
    const sent: string[] = [];
    let refuse = true;
    const sendText: SchedulerDeps['sendText'] = async ({ platform, chat, text }) => {
      sent.push(`${platform}:${chat.id} ${text}`);
      return refuse ? { ok: false, error: 'telegram answered 502' } : { ok: true, messageIds: ['m-1'] };
    };
    let running = startScheduler(schedulerDeps({ store, clock, inject: recordAndRefuse(injected), sendText, catchUpWindowMs: 30 * 60_000 }));
    await until(() => store.runsOf({ jobId: job.id, limit: 1 })[0]?.deliveries.length === 2, 'the notice tried');
    await running.stop();
    assert.equal(injected.length, 0, 'not run late');
    assert.deepEqual(sent, [
      'telegram:42 Missed while offline: "Call the dentist" (due 2026-12-01 20:11, the gateway was down until 22:14, past the catch-up window of 30 min (Europe/Berlin)), so it was not run late. Tell me if you still want it done.',
    ]);
    const listed = jobsText({ store });
    assert.match(listed, /"Call the dentist" \[missed\]\n/);
    assert.match(listed, /next run: none; last run: missed, due 2026-12-01 20:11, the gateway was down until 22:14, past the catch-up window of 30 min\n/);
    assert.match(jobsShortText({ store, maxChars: 500 }), /Call the dentist: once at .*; missed$/);
    const [run] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.deepEqual(run?.deliveries.map((d) => [d.target, d.error]), [
      ['home:slack', 'no home channel is set for slack (send /sethome in a chat)'],
      ['telegram:42', 'telegram answered 502'],
    ]);

    // The next start tries the chats not told yet; once told, a later start sends nothing.
    refuse = false;
    for (let start = 0; start < 2; start++) {
      running = startScheduler(schedulerDeps({ store, clock, inject: recordAndRefuse(injected), sendText, catchUpWindowMs: 30 * 60_000 }));
      await until(() => store.runsOf({ jobId: job.id, limit: 1 })[0]?.deliveries.find((d) => d.target === 'telegram:42')?.error === null, 'the notice delivered');
      await new Promise((r) => setImmediate(r));
      await running.stop();
    }
    assert.equal(sent.length, 2, sent.join('\n'));
    assert.equal(store.job({ jobId: job.id })?.state, 'done');
  });
});
