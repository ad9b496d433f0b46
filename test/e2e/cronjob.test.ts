import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';

const toolResults = (messages: readonly Record<string, unknown>[] | undefined): string[] =>
  (messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));

/** The tool results the model got back in its last request. */
function lastResults(h: Harness): string[] {
  return toolResults(h.fake.requests.at(-1)?.body.messages);
}

/** One scripted cronjob call in a chat, then a plain answer; resolves with the tool's result text. */
async function callCron(h: Harness, args: Record<string, unknown>, chatId = 'chat-1'): Promise<string> {
  h.fake.enqueue({ toolCalls: [{ name: 'cronjob', arguments: args }] }, { text: 'done' });
  await h.adapter.inject({ text: `cron ${String(args['action'])}`, chatId });
  await h.runner.waitIdle();
  return lastResults(h).at(-1) ?? '';
}

test('cronjob create "in 2 minutes" through the real openai SDK stores a job for the origin chat and answers with id, schedule and time zone', async () => {
  let pokes = 0;
  const h = await startHarness({ editIntervalMs: 20, config: { timezone: 'Europe/Berlin' }, cron: { poke: () => (pokes += 1) } });
  try {
    const before = Date.now();
    const result = await callCron(h, { action: 'create', name: 'Bank', prompt: 'Remind the user to call the bank.', schedule: 'in 2 minutes' });
    const after = Date.now();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(tools.includes('cronjob'), `cronjob is not offered: ${tools.join(', ')}`);
    const store = h.readStore();
    try {
      const [job] = store.listJobs({});
      assert.ok(job, 'no job stored');
      assert.equal(job.name, 'Bank');
      assert.equal(job.prompt, 'Remind the user to call the bank.');
      assert.equal(job.timeZone, 'Europe/Berlin');
      assert.deepEqual(job.targets, [{ kind: 'chat', platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, origin: true }]);
      assert.ok(job.nextRunAt !== null && job.nextRunAt >= before + 120_000 && job.nextRunAt <= after + 120_000, `next run ${String(job.nextRunAt)}`);
      assert.match(result, new RegExp(`^Created job ${job.id} "Bank": once at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\(Europe/Berlin\\); next run .* \\(Europe/Berlin\\); delivers to origin \\(test:chat-1\\)\\.$`));
    } finally {
      store.close();
    }
    assert.equal(pokes, 1, 'the scheduler was not woken');
  } finally {
    await h.stop();
  }
});

test('cronjob refuses a target the profile never talked with and lists the valid ones; a known chat is accepted', async () => {
  const h = await startHarness({ editIntervalMs: 20, cron: { poke: () => undefined } });
  try {
    h.fake.enqueue({ text: 'hi' });
    await h.adapter.inject({ text: 'hello from the other chat', chatId: 'chat-2' });
    await h.runner.waitIdle();
    const refused = await callCron(h, { action: 'create', prompt: 'Report the weather.', schedule: 'every 2h', deliver: 'telegram:999' });
    assert.match(refused, /^Error: cronjob create refused: "telegram:999" is not a chat this profile talks with \(valid targets: origin, test:chat-1, test:chat-2\)/);
    const home = await callCron(h, { action: 'create', prompt: 'Report the weather.', schedule: 'every 2h', deliver: 'home' });
    assert.match(home, /test has no home channel yet: send \/sethome in the test chat/);
    const ok = await callCron(h, { action: 'create', prompt: 'Report the weather.', schedule: 'every 2h', deliver: 'origin,test:chat-2' });
    assert.match(ok, /delivers to origin \(test:chat-1\), test:chat-2\.$/);
    const store = h.readStore();
    try {
      assert.equal(store.listJobs({}).length, 1, 'a refused create stored a job');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('cronjob list, update, pause, resume, run and remove change the stored job and say so', async () => {
  const h = await startHarness({ editIntervalMs: 20, config: { timezone: 'UTC' }, cron: { poke: () => undefined } });
  const store = (): ReturnType<Harness['readStore']> => h.readStore();
  try {
    const created = await callCron(h, { action: 'create', name: 'Issues', prompt: 'List the open issues of repo x.', schedule: '0 8 * * 1-5' });
    const id = /job ([0-9a-f]{8})/.exec(created)?.[1] ?? '';
    assert.match(created, /every weekday at 08:00 \(UTC\)/);
    const listed = await callCron(h, { action: 'list' });
    assert.match(listed, new RegExp(`^${id} "Issues" \\[active\\]\\n  schedule: every weekday at 08:00 \\(UTC\\) — "0 8 \\* \\* 1-5"\\n  next run: \\d{4}-\\d{2}-\\d{2} 08:00; last run: never`));
    const updated = await callCron(h, { action: 'update', job_id: id, schedule: 'every 3h', name: 'Issues often' });
    assert.match(updated, /^Updated job .* "Issues often": every 3 hours/);
    assert.match(await callCron(h, { action: 'pause', job_id: id }), /^Paused job/);
    let s = store();
    assert.equal(s.job({ jobId: id })?.state, 'paused');
    s.close();
    assert.match(await callCron(h, { action: 'run', job_id: id }), /paused; resume it first/);
    assert.match(await callCron(h, { action: 'resume', job_id: id }), /^Resumed job/);
    const beforeRun = Date.now();
    assert.match(await callCron(h, { action: 'run', job_id: id }), /is due now/);
    s = store();
    const due = s.job({ jobId: id });
    assert.equal(due?.state, 'active');
    assert.ok(due?.nextRunAt !== null && due?.nextRunAt !== undefined && due.nextRunAt >= beforeRun && due.nextRunAt <= Date.now());
    assert.equal(s.runsOf({ jobId: id, limit: 5 }).length, 0, 'run must not run anything itself');
    s.close();
    assert.match(await callCron(h, { action: 'remove', job_id: id }), /^Removed job/);
    assert.match(await callCron(h, { action: 'pause', job_id: id }), /there is no job/);
    assert.equal(await callCron(h, { action: 'list' }), 'No scheduled jobs.');
  } finally {
    await h.stop();
  }
});

test('without the scheduler the cronjob tool is not offered', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    h.fake.enqueue({ text: 'hi' });
    await h.adapter.inject({ text: 'hello' });
    await h.runner.waitIdle();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(!tools.includes('cronjob'));
  } finally {
    await h.stop();
  }
});

test("two profiles' jobs never see each other: a job created in work is not listed, paused or shown by /cron in personal", async () => {
  const work = await startHarness({ editIntervalMs: 20, cron: { poke: () => undefined } });
  const personal = await startHarness({ editIntervalMs: 20, cron: { poke: () => undefined } });
  try {
    const created = await callCron(work, { action: 'create', name: 'Standup', prompt: 'Post the standup reminder.', schedule: '0 9 * * 1-5' });
    const id = /job ([0-9a-f]{8})/.exec(created)?.[1] ?? '';
    assert.notEqual(id, '');
    assert.equal(await callCron(personal, { action: 'list' }), 'No scheduled jobs.');
    assert.match(await callCron(personal, { action: 'pause', job_id: id }), new RegExp(`there is no job "${id}"`));
    await personal.adapter.inject({ text: '/cron' });
    await personal.runner.waitIdle();
    await personal.adapter.waitFor({ predicate: () => (personal.adapter.shown().at(-1)?.text ?? '').startsWith('No scheduled jobs'), what: '/cron in personal' });
    assert.match(await callCron(work, { action: 'list' }), new RegExp(`^${id} "Standup" \\[active\\]`));
  } finally {
    await personal.stop();
    await work.stop();
  }
});
