import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import type { BotMessage } from '../fakes/discord/types.js';
import { lastToolResult, scriptCommand } from '../helpers/approvals.js';
import { startHarness } from '../helpers/harness.js';
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
