import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSchedule } from '../../src/util/schedule/schedule.js';
import { nextRun } from '../../src/jobs/schedule-next.js';
import type { Store } from '../../src/store/types.js';
import { say } from '../helpers/converse.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** Stores a job the way the cronjob tool does (schedule parsed in UTC, origin target test:chat-1). */
function addJob(store: Store, name: string, text: string): void {
  const now = Date.now();
  const parsed = parseSchedule({ text, timeZone: 'UTC', now });
  assert.ok(parsed.ok);
  store.createJob({
    name,
    prompt: `do ${name}`,
    scheduleText: text,
    schedule: parsed.schedule,
    timeZone: 'UTC',
    targets: [{ kind: 'chat', platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, origin: true }],
    nextRunAt: nextRun({ schedule: parsed.schedule, after: now, timeZone: 'UTC' }) ?? null,
  });
}

/** Sends /sethome in group-1 as `senderId`; resolves with the reply shown there. */
async function sayInGroup(h: Harness, senderId: string): Promise<string> {
  await h.adapter.inject({ text: '/sethome', chatId: 'group-1', kind: 'group', senderId });
  await h.runner.waitIdle();
  await h.adapter.waitFor({ predicate: () => h.adapter.shown({ chatId: 'group-1' }).length > 0, what: 'the reply in the group' });
  return h.adapter.shown({ chatId: 'group-1' }).at(-1)?.text ?? '';
}

test('/sethome in a DM makes it the home channel; in a group only an allowlisted owner may; "home" then is a valid target', async () => {
  const h = await startHarness({ allow: ['user-1'], cron: { poke: () => undefined } });
  try {
    assert.match(await say(h, '/sethome'), /^This chat \(test:chat-1\) is now the test home channel: jobs delivering to "home"/);
    const store = h.readStore();
    try {
      assert.deepEqual(store.homeChannel({ platform: 'test' })?.chat, { id: 'chat-1', kind: 'dm' });
    } finally {
      store.close();
    }
    assert.match(await say(h, '/sethome'), /already is the test home channel/);
    assert.match(await sayInGroup(h, 'user-1'), /^This chat \(test:group-1\) is now the test home channel \(it was test:chat-1\)/);
    assert.equal(h.fake.requests.length, 0, 'a command reached the model');
    h.fake.enqueue({ toolCalls: [{ name: 'cronjob', arguments: { action: 'create', prompt: 'Say good morning.', schedule: '0 8 * * *', deliver: 'home' } }] }, { text: 'ok' });
    await say(h, 'every morning say hi in the home channel');
    const result = (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1) ?? '';
    assert.match(result, /delivers to home channel of test\.$/);
  } finally {
    await h.stop();
  }
});

test('/sethome in a group is refused when the platform lets everyone in (nobody is its owner)', async () => {
  const h = await startHarness({ allow: 'all' });
  try {
    assert.match(await sayInGroup(h, 'user-9'), /^Only the owner .* can make a group the home channel\.$/);
    const store = h.readStore();
    try {
      assert.equal(store.homeChannel({ platform: 'test' }), undefined);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('/cron lists the jobs one line each with schedule, next run and last outcome, cut to an SMS-sized limit', async () => {
  const h = await startHarness({ capabilities: { maxMessageLength: 160 } });
  try {
    assert.match(await say(h, '/cron'), /^No scheduled jobs\./);
    const store = h.readStore();
    try {
      addJob(store, 'Bank', '2030-01-02 09:00');
      for (const n of [1, 2, 3, 4]) addJob(store, `Report ${n}`, '0 8 * * 1-5');
    } finally {
      store.close();
    }
    const reply = await say(h, '/cron');
    assert.ok(reply.length <= 160, `${reply.length} chars`);
    const lines = reply.split('\n');
    assert.match(lines[0] ?? '', /^[0-9a-f]{8} Bank: once at 2030-01-02 09:00 \(UTC\); next 2030-01-02 09:00$/);
    assert.match(lines.at(-1) ?? '', /^… [1-4] more \(hermes cron list\)$/);
    assert.equal(h.fake.requests.length, 0, '/cron reached the model');
  } finally {
    await h.stop();
  }
});
