import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FakeTelegram } from '../fakes/telegram/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import type { Harness } from '../helpers/harness.js';
import { driveUntil, runsOf, withStore } from '../helpers/jobs.js';
import { ownerChat as botTexts, telegramGateway, tgDm as dm, tgOwner as owner } from '../helpers/telegram-gateway.js';

const minute = 60_000;

/** The owner asks in Telegram; the scripted model calls cronjob with `args`, then answers `reply`; resolves once the reply is in the chat. */
async function askForJob(params: { h: Harness; fake: FakeTelegram; clock: FakeClock; args: Record<string, unknown>; reply: string }): Promise<string> {
  const { h, fake, clock } = params;
  h.fake.enqueue({ toolCalls: [{ name: 'cronjob', arguments: params.args }] }, { text: params.reply });
  fake.pushMessage({ chat: dm, from: owner, text: 'remind me in 2 minutes to call the bank' });
  await driveUntil({ clock, check: () => botTexts(fake).some((m) => m.shown === params.reply), what: 'the answer to the request', stepMs: 100 });
  const toolResult = (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1);
  return toolResult ?? '';
}

/** The one job in the store. */
function onlyJobId(h: Harness): string {
  const jobs = withStore(h, (store) => store.listJobs({}));
  assert.equal(jobs.length, 1, `jobs: ${jobs.map((j) => j.name).join(', ')}`);
  return jobs[0]?.id ?? '';
}

test('telegram: the model creates a job "in 2 minutes" in a chat; at the fake due time its answer arrives there, recorded delivered with Telegram’s message id', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, close } = await telegramGateway({ clock });
  try {
    const created = await askForJob({ h, fake, clock, args: { action: 'create', schedule: 'in 2 minutes', prompt: 'Remind the user to call the bank.', name: 'Bank' }, reply: 'I will remind you.' });
    assert.match(created, /^Created job [0-9a-f]{8} "Bank": once at .*delivers to origin \(telegram:1001\)\.$/);
    const jobId = onlyJobId(h);
    const before = botTexts(fake).length;
    h.fake.enqueue({ text: 'Time to call the bank!' });
    await clock.advance(minute);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(h.fake.requests.length, 2, 'nothing runs before the due time');
    await driveUntil({ clock, check: () => runsOf(h, jobId)[0]?.outcome === 'delivered', what: 'the delivered run' });
    const sent = botTexts(fake).slice(before);
    assert.deepEqual(sent.map((m) => m.shown), ['Time to call the bank!']);
    const [run] = runsOf(h, jobId);
    assert.deepEqual(run?.deliveries.map((d) => [d.target, d.messageIds]), [['telegram:1001', [String(sent[0]?.message_id)]]]);
    assert.equal(h.fake.requests.at(-1)?.body.messages?.at(-1)?.['content'], 'Remind the user to call the bank.');
    assert.equal(withStore(h, (store) => store.job({ jobId })?.state), 'done');
  } finally {
    await close();
  }
});

test('telegram: sendMessage answers 500 on the job’s send → delivery_failed with the error, retried on the fake clock, then delivered with the id; the model asked once', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, close } = await telegramGateway({ clock });
  try {
    await askForJob({ h, fake, clock, args: { action: 'create', schedule: 'in 2 minutes', prompt: 'Say hi.', name: 'Flaky' }, reply: 'Scheduled.' });
    const jobId = onlyJobId(h);
    const before = botTexts(fake).length;
    const calls = h.fake.requests.length;
    h.fake.enqueue({ text: 'Hi there.' });
    // Every sendMessage fails until the run is recorded delivery_failed (the adapter's own retries included).
    fake.failNext({ method: 'sendMessage', status: 500, count: 1000 });
    await driveUntil({ clock, check: () => runsOf(h, jobId)[0]?.outcome === 'delivery_failed', what: 'delivery_failed' });
    const failed = runsOf(h, jobId)[0];
    assert.match(failed?.error ?? '', /500|Internal Server Error/);
    assert.ok(typeof failed?.retryAt === 'number', 'a retry is planned');
    assert.deepEqual(failed?.deliveries.map((d) => [d.target, d.messageIds]), [['telegram:1001', []]]);
    assert.match(failed?.deliveries[0]?.error ?? '', /500|Internal Server Error/);
    assert.equal(botTexts(fake).length, before, 'nothing reached the chat');
    assert.ok(fake.callsTo('sendMessage').some((c) => c.status === 500), 'Telegram was asked and answered 500');
    fake.clearFailures();
    await driveUntil({ clock, check: () => runsOf(h, jobId)[0]?.outcome === 'delivered', what: 'the retried delivery', stepMs: 5000 });
    const sent = botTexts(fake).slice(before);
    assert.deepEqual(sent.map((m) => m.shown), ['Hi there.']);
    const run = runsOf(h, jobId)[0];
    assert.deepEqual(run?.deliveries.map((d) => [d.target, d.messageIds, d.error]), [['telegram:1001', [String(sent[0]?.message_id)], null]]);
    assert.equal(h.fake.requests.length, calls + 1, 'the answer was sent again, not asked again');
  } finally {
    await close();
  }
});

test('telegram: a deliver target the profile never talked with is refused at creation with the valid ones; nothing is stored', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, close } = await telegramGateway({ clock });
  try {
    const refused = await askForJob({ h, fake, clock, args: { action: 'create', schedule: 'every 2h', prompt: 'Report the weather.', deliver: 'telegram:999' }, reply: 'That chat is not allowed.' });
    assert.match(refused, /^Error: cronjob create refused: "telegram:999" is not a chat this profile talks with \(valid targets: origin, telegram:1001\)/);
    assert.equal(withStore(h, (store) => store.listJobs({}).length), 0, 'a refused create stored a job');
  } finally {
    await close();
  }
});
