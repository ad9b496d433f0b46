import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness } from '../helpers/harness.js';
import { createJob, driveUntil, runsOf, testChat, withStore } from '../helpers/jobs.js';

const minute = 60_000;

test('a job due in 2 minutes: at the fake time the answer arrives in its chat, recorded delivered with the platform message id', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const job = createJob({ h, clock, name: 'Bank reminder', prompt: 'Remind me to call the bank.', schedule: 'in 2m' });
    h.fake.enqueue({ text: 'Time to call the bank!' });
    await clock.advance(2 * minute - 1000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(h.fake.requests.length, 0, 'nothing runs before the due time');
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivered', what: 'the delivered run' });
    const shown = h.adapter.shown();
    assert.equal(shown.length, 1);
    assert.equal(shown[0]?.text, 'Time to call the bank!');
    const [run] = runsOf(h, job.id);
    assert.deepEqual(run?.deliveries.map((d) => [d.target, d.messageIds]), [['test:chat-1', [shown[0]?.id]]]);
    // The model was asked the job's prompt, in a fresh session titled with the job's name.
    const user = h.fake.requests[0]?.body.messages?.at(-1);
    assert.equal(user?.['content'], 'Remind me to call the bank.');
    withStore(h, (store) => {
      const session = store.listSessions({ limit: 5 }).find((s) => s.id === run?.sessionId);
      assert.equal(session?.title, 'Bank reminder');
      assert.notEqual(session?.key, 'test:test:chat-1', 'not the chat’s own session');
      assert.equal(store.job({ jobId: job.id })?.state, 'done', 'a one-shot that ran is done');
      assert.equal(store.pendingInbound().length, 0);
    });
  } finally {
    await h.stop();
  }
});

test('[SILENT] delivers nothing (outcome silent); a script job delivers its output without a model call', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const quiet = createJob({ h, clock, name: 'Only if news', prompt: 'Tell me only if something changed.', schedule: 'in 1m' });
    h.fake.enqueue({ text: '[SILENT]' });
    await driveUntil({ clock, check: () => runsOf(h, quiet.id)[0]?.outcome === 'silent', what: 'the silent run' });
    assert.equal(h.fake.requests.length, 1, 'the model ran');
    assert.equal(h.adapter.calls.filter((c) => c.kind !== 'typing').length, 0, 'nothing was sent');

    const script = createJob({ h, clock, name: 'Disk', prompt: '', script: 'echo "disk 95%"', schedule: 'in 1m' });
    await driveUntil({ clock, check: () => runsOf(h, script.id)[0]?.outcome === 'delivered', what: 'the script run' });
    assert.equal(h.fake.requests.length, 1, 'no model call for a script job');
    const shown = h.adapter.shown();
    assert.deepEqual(shown.map((m) => m.text), ['disk 95%']);
    assert.deepEqual(runsOf(h, script.id)[0]?.deliveries[0]?.messageIds, [shown[0]?.id]);
  } finally {
    await h.stop();
  }
});

test('several targets: the final text reaches each, every message id recorded', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const job = createJob({ h, clock, name: 'Both', prompt: 'Say hello.', schedule: 'in 1m', targets: [testChat(), testChat({ chatId: 'chat-2', origin: false })] });
    h.fake.enqueue({ text: 'Hello both.' });
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivered', what: 'the delivered run' });
    const first = h.adapter.shown({ chatId: 'chat-1' });
    const second = h.adapter.shown({ chatId: 'chat-2' });
    assert.deepEqual([first.map((m) => m.text), second.map((m) => m.text)], [['Hello both.'], ['Hello both.']]);
    const deliveries = runsOf(h, job.id)[0]?.deliveries ?? [];
    assert.deepEqual(
      deliveries.map((d) => [d.target, d.messageIds]).sort(),
      [['test:chat-1', [first[0]?.id]], ['test:chat-2', [second[0]?.id]]],
    );
  } finally {
    await h.stop();
  }
});

test('a 3-hour downtime over an hourly job: one run, the other missed times recorded skipped', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    // Due 2.5 h ago: missed at -2.5 h, -1.5 h and -0.5 h; only the newest is within the 1 h catch-up window.
    const job = createJob({ h, clock, name: 'Hourly', prompt: 'Hourly news.', schedule: 'every 1h', nextRunAt: clock.now() - 150 * minute });
    h.fake.setResponder(() => ({ text: 'news' }));
    await driveUntil({ clock, check: () => runsOf(h, job.id).some((r) => r.outcome === 'delivered'), what: 'the catch-up run' });
    await clock.advance(10 * minute);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(h.fake.requests.length, 1, 'one run, never a burst');
    const runs = runsOf(h, job.id);
    const skipped = runs.find((r) => r.outcome === 'skipped');
    assert.equal(skipped?.skippedCount, 2);
    assert.equal(runs.filter((r) => r.outcome === 'delivered').length, 1);
  } finally {
    await h.stop();
  }
});

test('the platform fails the job’s send: delivery_failed with the error, retried, then delivered (no second model call)', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const job = createJob({ h, clock, name: 'Flaky', prompt: 'Say hi.', schedule: 'in 1m' });
    h.fake.enqueue({ text: 'Hi there.' });
    h.adapter.down = new Error('500: Internal Server Error');
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivery_failed', what: 'delivery_failed' });
    const failed = runsOf(h, job.id)[0];
    assert.match(failed?.error ?? '', /500/);
    assert.ok(failed?.retryAt !== null && failed?.retryAt !== undefined);
    assert.deepEqual(failed?.deliveries[0]?.messageIds, []);
    h.adapter.down = null;
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivered', what: 'the retried delivery', stepMs: 5000 });
    const shown = h.adapter.shown();
    assert.deepEqual(shown.map((m) => m.text), ['Hi there.']);
    assert.deepEqual(runsOf(h, job.id)[0]?.deliveries[0]?.messageIds, [shown[0]?.id]);
    assert.equal(h.fake.requests.length, 1, 'the answer was sent again, not asked again');
    await h.restart();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(h.adapter.shown().length, 1, 'the journal does not send it again after a restart');
  } finally {
    await h.stop();
  }
});

test('an unreachable model: the run is retried 5 minutes later, then delivered', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const job = createJob({ h, clock, name: 'Later', prompt: 'Say later.', schedule: 'in 1m' });
    // No scripted reply: the fake answers 500 until one is queued.
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'retrying', what: 'retrying' });
    const retrying = runsOf(h, job.id)[0];
    assert.equal(h.adapter.calls.filter((c) => c.kind !== 'typing').length, 0, 'no error note is sent for a job run');
    assert.equal((retrying?.retryAt ?? 0) - clock.now() <= 5 * minute, true);
    h.fake.enqueue({ text: 'Later it is.' });
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivered', what: 'the retried run', stepMs: 10_000 });
    assert.deepEqual(h.adapter.shown().map((m) => m.text), ['Later it is.']);
    assert.equal(runsOf(h, job.id)[0]?.attempts, 2);
  } finally {
    await h.stop();
  }
});

test('a model unreachable on every try: retried after 5, 15 and 30 minutes, then the run (and the one-shot) is failed', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const job = createJob({ h, clock, name: 'Never', prompt: 'Say never.', schedule: 'in 1m' });
    const retryAts: number[] = [];
    await driveUntil({
      clock,
      stepMs: 20_000,
      what: 'the failed run',
      check: () => {
        const run = runsOf(h, job.id)[0];
        if (run?.outcome === 'retrying' && run.retryAt !== null && retryAts.at(-1) !== run.retryAt) retryAts.push(run.retryAt);
        return run?.outcome === 'failed';
      },
    });
    const run = runsOf(h, job.id)[0];
    assert.equal(run?.attempts, 4, 'the first try and three retries');
    assert.equal(retryAts.length, 3);
    // Each retry is due its delay after the previous try ended (a try itself takes a little fake time).
    const [first = 0, second = 0, third = 0] = retryAts;
    assert.ok(second - first >= 15 * minute && second - first < 17 * minute, `second delay ${second - first}`);
    assert.ok(third - second >= 30 * minute && third - second < 32 * minute, `third delay ${third - second}`);
    assert.equal(h.adapter.calls.filter((c) => c.kind !== 'typing').length, 0, 'nothing is sent');
    assert.equal(withStore(h, (store) => store.job({ jobId: job.id })?.state), 'failed');
  } finally {
    await h.stop();
  }
});

test('two profiles never see each other’s jobs', async () => {
  const clock = new FakeClock();
  const work = await startHarness({ clock, config: { timezone: 'UTC' } });
  const personal = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const job = createJob({ h: work, clock, name: 'Work only', prompt: 'Work news.', schedule: 'in 1m' });
    work.fake.enqueue({ text: 'work news' });
    personal.fake.setResponder(() => ({ text: 'should never run' }));
    await driveUntil({ clock, check: () => runsOf(work, job.id)[0]?.outcome === 'delivered', what: 'the work run' });
    await clock.advance(5 * minute);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(personal.fake.requests.length, 0);
    assert.equal(personal.adapter.shown().length, 0);
    assert.equal(withStore(personal, (store) => store.listJobs({}).length), 0);
    assert.equal(work.adapter.shown().length, 1);
  } finally {
    await work.stop();
    await personal.stop();
  }
});
