import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import type { BotMessage } from '../fakes/discord/types.js';
import type { Clock } from '../../src/core/clock.js';
import { lastToolResult, scriptCommand } from '../helpers/approvals.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { driveUntil } from '../helpers/jobs.js';
import { discordAdapter, discordToken, testGuild } from '../helpers/discord.js';

const owner = { id: '200000000000000001', username: 'owner' };
const head = /^⚠️ The agent wants to run a dangerous command \(terminal\):\n`rm -rf build`\n• recursive delete \(rm -r\)/;

test('discord DM: rm -rf build asks with four component buttons; Deny through an INTERACTION_CREATE → not run, the model told, buttons gone; Allow once on the next ask runs it', { timeout: 60_000 }, async () => {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  const h = await startHarness({
    // No background review: its model calls would take the scripted replies.
    config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: DiscordAdapter; allow: string[]; unauthorized: 'ignore'; mergeWindowMs: number }[] => [
      { adapter: discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id] } }), allow: [owner.id], unauthorized: 'ignore', mergeWindowMs: 0 },
    ],
  });
  const questions = (): BotMessage[] => fake.channelMessages({ channelId: dm }).filter((m) => !m.deleted && m.content.startsWith('⚠️ The agent wants'));
  const current = (q: BotMessage): BotMessage | undefined => fake.channelMessages({ channelId: dm }).find((m) => m.id === q.id);
  const shown = (text: string): boolean => fake.channelMessages({ channelId: dm }).some((m) => !m.deleted && m.content === text);
  try {
    await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
    const build = path.join(h.profile.workspaceDir, 'build');
    mkdirSync(path.join(build, 'out'), { recursive: true });
    scriptCommand(h, 'rm -rf build', 'ok, I left it');
    fake.messageCreate({ channelId: dm, author: owner, content: 'clean up the build' });
    const q = await fake.waitFor({ predicate: () => questions()[0], timeoutMs: 15_000, what: 'the question' });
    assert.match(q.content, head);
    assert.deepEqual(fake.buttons({ messageId: q.id }).map((row) => row.map((b) => b.label)), [['Allow once', 'Allow for this session'], ['Always allow', 'Deny']]);
    const pressed = fake.press({ messageId: q.id, user: owner, label: 'Deny' });
    await fake.waitFor({ predicate: () => shown('ok, I left it'), timeoutMs: 15_000, what: 'the answer' });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the denied command ran');
    assert.match(lastToolResult(h), /^Not run: the owner denied it \(owner pressed Deny or answered \/deny\)\./);
    assert.match(current(q)?.content ?? '', /\n\n⛔ Denied by owner$/);
    assert.deepEqual(fake.buttons({ messageId: q.id }), []);
    assert.ok(fake.interaction({ id: pressed.id })?.callback, 'the interaction was not answered');

    scriptCommand(h, 'rm -rf build', 'cleaned');
    fake.messageCreate({ channelId: dm, author: owner, content: 'now do clean it' });
    const second = await fake.waitFor({ predicate: () => questions()[1], timeoutMs: 15_000, what: 'the second question' });
    fake.press({ messageId: second.id, user: owner, label: 'Allow once' });
    await fake.waitFor({ predicate: () => shown('cleaned'), timeoutMs: 15_000, what: 'the second answer' });
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the allowed command did not run');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
    assert.match(current(second)?.content ?? '', /\n\n✅ Allowed once by owner$/);
  } finally {
    await h.stop();
    await fake.close();
  }
});

/** A whole gateway (manual approval) with the real discord.js adapter against a fake Discord whose owner is `owner`, in the owner's DM. */
async function start(params: { clock?: Clock } = {}): Promise<{
  h: Harness;
  fake: FakeDiscord;
  dm: string;
  build: string;
  questions: () => BotMessage[];
  current: (q: BotMessage) => BotMessage | undefined;
  shown: (text: string) => boolean;
  close: () => Promise<void>;
}> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  const h = await startHarness({
    ...(params.clock ? { clock: params.clock } : {}),
    config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: DiscordAdapter; allow: string[]; unauthorized: 'ignore'; mergeWindowMs: number }[] => [
      { adapter: discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id] } }), allow: [owner.id], unauthorized: 'ignore', mergeWindowMs: 0 },
    ],
  });
  const build = path.join(h.profile.workspaceDir, 'build');
  mkdirSync(path.join(build, 'out'), { recursive: true });
  return {
    h,
    fake,
    dm,
    build,
    questions: () => fake.channelMessages({ channelId: dm }).filter((m) => !m.deleted && m.content.startsWith('⚠️ The agent wants')),
    current: (q) => fake.channelMessages({ channelId: dm }).find((m) => m.id === q.id),
    shown: (text) => fake.channelMessages({ channelId: dm }).some((m) => !m.deleted && m.content === text),
    close: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

test('discord: no answer within tools.approval_timeout (fake clock) → denied, the question says so without buttons, the model is told', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, dm, build, questions, current, shown, close } = await start({ clock });
  try {
    await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
    scriptCommand(h, 'rm -rf build', 'nobody answered');
    fake.messageCreate({ channelId: dm, author: owner, content: 'clean up the build' });
    await driveUntil({ clock, check: () => questions().length === 1, what: 'the question', stepMs: 100 });
    const q = questions()[0];
    assert.ok(q);
    await clock.advance(4 * 60_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 1, 'denied before the timeout');
    assert.equal(fake.buttons({ messageId: q.id }).flat().length, 4);
    await driveUntil({ clock, check: () => shown('nobody answered'), what: 'the final answer', stepMs: 1000 });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the command ran without an answer');
    assert.match(current(q)?.content ?? '', /\n\n⌛ No answer in 5 min — denied$/);
    assert.deepEqual(fake.buttons({ messageId: q.id }), []);
    assert.match(lastToolResult(h), /^Not run: no answer from the owner within 5 min \(denied\)\. Do not retry it/);
  } finally {
    await close();
  }
});

test('discord: a restart denies what waits and edits the question (buttons gone) before the adapter stops', { timeout: 60_000 }, async () => {
  const { h, fake, dm, build, questions, current, close } = await start();
  try {
    await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
    scriptCommand(h, 'rm -rf build', 'stopped for the restart');
    fake.messageCreate({ channelId: dm, author: owner, content: 'clean up the build' });
    const q = await fake.waitFor({ predicate: () => questions()[0], timeoutMs: 15_000, what: 'the question' });
    // The unanswered message is taken up again after the restart (the journal): this time the model only answers.
    h.fake.enqueue({ text: 'answered after the restart' });
    await h.restart();
    assert.match(lastToolResult(h), /^Not run: not approved: the gateway is stopping\. Do not retry it/);
    assert.match(current(q)?.content ?? '', /\n\n⛔ Denied: the gateway is stopping$/);
    await fake.waitFor({ predicate: () => fake.identifies >= 2 && fake.sessions > 0, what: 'the new gateway session' });
    await h.runner.waitIdle();
    assert.deepEqual(fake.buttons({ messageId: q.id }), [], 'the buttons outlived the gateway');
    assert.ok(existsSync(build));
  } finally {
    await close();
  }
});

test('discord: a question left with its buttons by a restart (the edit failed) → a press after the restart gets an "expired" notice, its buttons removed, nothing runs', { timeout: 60_000 }, async () => {
  const { h, fake, dm, build, questions, close } = await start();
  try {
    await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
    scriptCommand(h, 'rm -rf build', 'stopped for the restart');
    fake.messageCreate({ channelId: dm, author: owner, content: 'clean up the build' });
    const q = await fake.waitFor({ predicate: () => questions()[0], timeoutMs: 15_000, what: 'the question' });
    // The shutdown's edit of the question fails (as if the gateway had died): its buttons stay on the phone.
    fake.failNext({ route: `PATCH /channels/:id/messages/${q.id}`, status: 404 });
    h.fake.enqueue({ text: 'answered after the restart' });
    await h.restart();
    await fake.waitFor({ predicate: () => fake.identifies >= 2 && fake.sessions > 0, what: 'the new gateway session' });
    await h.runner.waitIdle();
    const calls = h.fake.requests.length;
    assert.equal(fake.buttons({ messageId: q.id }).flat().length, 4, 'the test needs the old buttons still shown');
    const pressed = fake.press({ messageId: q.id, user: owner, label: 'Allow once' });
    const followup = await fake.waitFor({ predicate: () => fake.interaction({ id: pressed.id })?.followups[0], timeoutMs: 15_000, what: 'the notice' });
    assert.equal(followup['content'], 'This question was already answered or has expired.');
    await fake.waitFor({ predicate: () => fake.buttons({ messageId: q.id }).length === 0, timeoutMs: 15_000, what: 'the buttons removed' });
    await new Promise((r) => setTimeout(r, 300));
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'an old button acted after the restart');
    assert.equal(h.fake.requests.length, calls, 'the press started a turn');
  } finally {
    await close();
  }
});
