import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { defaultTurnReactions } from '../../src/core/platform.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { discordAdapter, discordToken, testGuild } from '../helpers/discord.js';

const owner = { id: '200000000000000001', username: 'owner' };
const general = testGuild.channels[0]?.id ?? '';

async function start(params: { overrides?: Record<string, unknown> } = {}): Promise<{ h: Harness; fake: FakeDiscord; dm: string; adapter: () => DiscordAdapter }> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  let adapter: DiscordAdapter | undefined;
  const h = await startHarness({
    config: { stream: { edit_interval: '1s' } },
    adapters: ({ profile, clock, logger }) => {
      adapter = discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id], ...params.overrides } });
      return [{ adapter, allow: [owner.id], unauthorized: 'ignore', mergeWindowMs: 200, ...(params.overrides?.['reactions'] === true ? { reactions: defaultTurnReactions } : {}) }];
    },
  });
  await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
  return { h, fake, dm, adapter: () => adapter as DiscordAdapter };
}

test('discord DM: streamed edits at most once a second, exact final text, no mass pings possible', { timeout: 30_000 }, async () => {
  const { h, fake, dm } = await start();
  try {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
    h.fake.enqueue({ chunks: ['@everyone ', ...words.map((w) => `${w} `)], chunkDelayMs: 70 });
    fake.messageCreate({ channelId: dm, author: owner, content: 'count' });
    const final = `@everyone ${words.join(' ')}`;
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm })[0]?.content === final, timeoutMs: 15_000, what: 'the final text' });
    await h.runner.waitIdle();
    const messages = fake.channelMessages({ channelId: dm });
    assert.equal(messages.length, 1);
    assert.ok((messages[0]?.edits ?? 0) >= 1, 'the reply was streamed by edits');
    assert.deepEqual(messages[0]?.allowed_mentions, { parse: ['users'], replied_user: false });
    const ops = fake.calls.filter((c) => (c.method === 'POST' || c.method === 'PATCH') && c.path.includes(`/channels/${dm}/messages`));
    for (let i = 1; i < ops.length; i++) assert.ok((ops[i]?.at ?? 0) - (ops[i - 1]?.at ?? 0) >= 990, 'two calls within a second');
    assert.ok(fake.typingCount({ channelId: dm }) >= 1, 'typing was shown');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('discord guild: ignored without a mention, answered in the channel with one', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.setResponder(() => ({ text: 'at your service' }));
    fake.messageCreate({ channelId: general, guildId: testGuild.id, author: owner, content: 'just chatting' });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(h.fake.requests.length, 0);
    const bot = { id: '100000000000000001', username: 'hermes', bot: true };
    fake.messageCreate({ channelId: general, guildId: testGuild.id, author: owner, content: `<@${bot.id}> help me`, mentions: [bot] });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: general }).some((m) => m.content === 'at your service'), what: 'the answer' });
    await h.runner.waitIdle();
    const userText = (h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'];
    assert.equal(userText, 'help me', 'the mention is stripped');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('discord: a 429 while streaming is waited out by discord.js, with no duplicate message', { timeout: 30_000 }, async () => {
  const { h, fake, dm } = await start();
  try {
    const words = Array.from({ length: 25 }, (_, i) => `t${i}`);
    h.fake.enqueue({ chunks: words.map((w) => `${w} `), chunkDelayMs: 80 });
    fake.messageCreate({ channelId: dm, author: owner, content: 'go' });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).length === 1, what: 'the first message' });
    fake.failNext({ route: 'PATCH /channels/:id/messages/:id', status: 429, retryAfter: 1 });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm })[0]?.content === words.join(' '), timeoutMs: 20_000, what: 'the final text' });
    await h.runner.waitIdle();
    assert.equal(fake.channelMessages({ channelId: dm }).length, 1);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('discord: a gateway close with a resumable code resumes (no new IDENTIFY) and keeps answering', { timeout: 30_000 }, async () => {
  const { h, fake, dm } = await start();
  try {
    h.fake.setResponder(() => ({ text: 'still here' }));
    const identifies = fake.identifies;
    await fake.closeWith({ code: 4000 });
    await fake.waitFor({ predicate: () => fake.resumes >= 1, timeoutMs: 20_000, what: 'a RESUME' });
    fake.messageCreate({ channelId: dm, author: owner, content: 'are you there?' });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).some((m) => m.content === 'still here'), timeoutMs: 15_000, what: 'the answer after resume' });
    assert.equal(fake.identifies, identifies, 'resumed, not re-identified');
    assert.equal(h.runner.health().adapters.find((a) => a.name === 'discord')?.state, 'connected');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('discord reactions (when enabled): 👀 while working, ✅ when answered, ❌ when the model failed', { timeout: 20_000 }, async () => {
  const { h, fake, dm } = await start({ overrides: { reactions: true } });
  try {
    h.fake.enqueue({ text: 'fine' }, { status: 401, errorMessage: 'bad key' });
    const ok = fake.messageCreate({ channelId: dm, author: owner, content: 'first' });
    await fake.waitFor({ predicate: () => fake.reactions.filter((r) => r.messageId === ok['id']).length === 2, what: 'two reactions on the first message' });
    await h.runner.waitIdle();
    const bad = fake.messageCreate({ channelId: dm, author: owner, content: 'second' });
    await fake.waitFor({ predicate: () => fake.reactions.filter((r) => r.messageId === bad['id']).length === 2, what: 'two reactions on the second message' });
    assert.deepEqual(fake.reactions.filter((r) => r.messageId === ok['id']).map((r) => r.emoji), ['👀', '✅']);
    assert.deepEqual(fake.reactions.filter((r) => r.messageId === bad['id']).map((r) => r.emoji), ['👀', '❌']);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('discord: a close discord.js will not recover from (4014, intents) is fatal with a hint, not "reconnecting" for ever', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    await fake.closeWith({ code: 4014 });
    const deadline = Date.now() + 10_000;
    while (h.runner.health().adapters.find((a) => a.name === 'discord')?.state !== 'fatal') {
      assert.ok(Date.now() < deadline, JSON.stringify(h.runner.health().adapters));
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.match(h.runner.health().adapters.find((a) => a.name === 'discord')?.lastError ?? '', /Message Content Intent/);
  } finally {
    await h.stop();
    await fake.close();
  }
});
