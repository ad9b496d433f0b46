import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness } from '../helpers/harness.js';
import { createJob, driveToOutcome, failSends, runsOf, testChat, withStore } from '../helpers/jobs.js';

test('a long answer split in several messages whose second part failed: the delivery retry sends only the missing part; the run lists every part once', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' }, capabilities: { maxMessageLength: 200 } });
  try {
    const full = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    assert.ok(full.length > 200 && full.length < 400, 'two parts');
    // The platform takes the first part, then fails every send until it is back.
    const sends = failSends({ h, when: () => h.adapter.shown().length >= 1 });
    const job = createJob({ h, clock, name: 'Long', prompt: 'Write a lot.', schedule: 'in 1m' });
    h.fake.enqueue({ text: full });
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivery_failed', what: 'delivery_failed' });
    assert.equal(h.adapter.shown().length, 1, 'the first part was shown');
    sends.heal();
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivered', what: 'the retried delivery' });
    const shown = h.adapter.shown();
    assert.equal(shown.length, 2, 'the first part is not sent again');
    assert.equal(shown.map((m) => m.text).join(' '), full);
    assert.deepEqual(runsOf(h, job.id)[0]?.deliveries.map((d) => [d.target, d.messageIds]), [['test:chat-1', shown.map((m) => m.id)]]);
    assert.equal(h.fake.requests.length, 1, 'the answer was sent again, not asked again');
  } finally {
    await h.stop();
  }
});

test('a further target whose second part failed: the retry sends only that part there (the first target is not sent to again)', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' }, capabilities: { maxMessageLength: 200 } });
  try {
    const full = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    const sends = failSends({ h, when: (message) => message.chat.id === 'chat-2' && h.adapter.shown({ chatId: 'chat-2' }).length >= 1 });
    const job = createJob({ h, clock, name: 'Two chats', prompt: 'Write a lot.', schedule: 'in 1m', targets: [testChat(), testChat({ chatId: 'chat-2', origin: false })] });
    h.fake.enqueue({ text: full });
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivery_failed', what: 'delivery_failed' });
    sends.heal();
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivered', what: 'the retried delivery' });
    const one = h.adapter.shown();
    const two = h.adapter.shown({ chatId: 'chat-2' });
    assert.equal(one.length, 2);
    assert.equal(two.length, 2, 'the further target’s first part is not sent again');
    assert.equal(two.map((m) => m.text).join(' '), full);
    const ids = new Map(runsOf(h, job.id)[0]?.deliveries.map((d) => [d.target, d.messageIds]));
    assert.deepEqual(ids.get('test:chat-1'), one.map((m) => m.id));
    assert.deepEqual(ids.get('test:chat-2'), two.map((m) => m.id));
  } finally {
    await h.stop();
  }
});

test('a home target moved by /sethome between retries of a partly sent answer gets the whole answer in its new chat', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' }, capabilities: { maxMessageLength: 200 } });
  try {
    const full = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    withStore(h, (store) => store.setHomeChannel({ platform: 'test', chat: { id: 'chat-1', kind: 'dm' } }));
    const sends = failSends({ h, when: () => h.adapter.shown().length >= 1 });
    const job = createJob({ h, clock, name: 'Home', prompt: 'Write a lot.', schedule: 'in 1m', targets: [{ kind: 'home', platform: 'test' }] });
    h.fake.enqueue({ text: full });
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivery_failed', what: 'delivery_failed' });
    sends.heal();
    withStore(h, (store) => store.setHomeChannel({ platform: 'test', chat: { id: 'chat-2', kind: 'dm' } }));
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivered', what: 'the retried delivery' });
    const moved = h.adapter.shown({ chatId: 'chat-2' });
    assert.equal(moved.map((m) => m.text).join(' '), full, 'every part in the new home chat');
    assert.deepEqual(runsOf(h, job.id)[0]?.deliveries[0]?.messageIds, moved.map((m) => m.id));
    assert.equal(h.adapter.shown().length, 1, 'the old home chat keeps its one part');
  } finally {
    await h.stop();
  }
});
