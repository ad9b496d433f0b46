import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { discordFactory } from '../../adapters/discord/factory.js';
import { slashCommands } from '../../adapters/discord/slash-commands.js';
import type { AppConfig } from '../../src/app/config-schema.js';
import { appConfigSchema } from '../../src/app/config-schema.js';
import type { AdapterEntry } from '../../src/core/platform.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { discordAdapter, discordToken } from '../helpers/discord.js';
import { gatewayFacts } from '../helpers/gateway-facts.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

const owner = { id: '200000000000000001', username: 'owner' };
const member = { id: '200000000000000003', username: 'member' };
const stranger = { id: '200000000000000004', username: 'stranger' };
const bot = { id: '100000000000000001', username: 'hermes', bot: true };
const helperRole = '400000000000000001';
const guild = {
  id: '300000000000000001', name: 'Test guild',
  channels: [{ id: '300000000000000010', name: 'general', type: 0 }],
  roles: [{ id: helperRole, name: 'helpers' }, { id: '400000000000000002', name: 'guests' }],
};
const general = '300000000000000010';

/** A gateway whose Discord entry comes from the real factory, built from a `platforms.discord` block. */
async function start(params: { discord?: Record<string, unknown>; withTempo?: boolean } = {}): Promise<{ h: Harness; fake: FakeDiscord; dm: string }> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [guild] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  const h = await startHarness({
    config: { stream: { edit_interval: '1s' } },
    adapters: ({ profile, clock, logger }): AdapterEntry[] => {
      const parsed = configSchema.parse({
        platforms: { discord: { enabled: true, token: discordToken, api_url: fake.apiBase, allowed_users: [owner.id], unauthorized: 'ignore', merge_window: '200ms', ...params.discord } },
      });
      return [discordFactory({ config: parsed.platforms.discord, cacheDir: profile.cacheDir, skillCommands: () => [], gateway: gatewayFacts({ profile, config: parsed }), clock, logger })];
    },
  });
  await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
  return { h, fake, dm };
}

async function stop(params: { h: Harness; fake: FakeDiscord }): Promise<void> {
  await params.h.stop();
  await params.fake.close();
}

test('discord slash commands: registered once across two starts (hash in storage), not on every start', { timeout: 20_000 }, async () => {
  const fake = new FakeDiscord({ token: discordToken, guilds: [guild] });
  await fake.start();
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  const stored = new Map<string, string>();
  const storage = { get: ({ name }: { name: string }) => stored.get(name), set: ({ name, value }: { name: string; value: string }) => void stored.set(name, value) };
  const adapter = discordAdapter({ fake, cacheDir, clock: systemClock, logger: pino({ level: 'silent' }) });
  const run = async (): Promise<void> => {
    const controller = new AbortController();
    let connected = false;
    const running = adapter.start({
      signal: controller.signal, storage, emit: async () => undefined, mayTalk: () => true, choose: async () => ({}),
      report: (report) => { connected ||= report.state === 'connected'; },
    });
    await fake.waitFor({ predicate: () => connected, what: 'READY' });
    await fake.waitFor({ predicate: () => stored.size > 0, what: 'the stored command hash' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await running;
  };
  try {
    await run();
    assert.equal(fake.commandOverwrites, 1);
    assert.deepEqual(fake.commands.map((command) => command['name']).sort(), ['approve', 'compress', 'context', 'cron', 'deny', 'help', 'memory', 'model', 'new', 'queue', 'reload_mcp', 'resume', 'retry', 'rollback', 'sessions', 'sethome', 'skills', 'status', 'steer', 'stop', 'title', 'tools', 'undo', 'usage', 'verbose', 'voice']);
    await run();
    assert.equal(fake.commandOverwrites, 1, 'the unchanged definitions are not registered again');
    assert.equal(fake.calls.filter((call) => call.method === 'PUT').length, 1);
  } finally {
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('discord /status through an interaction: answered at once (ephemeral), then the gateway replies in the channel', { timeout: 20_000 }, async () => {
  const { h, fake, dm } = await start();
  try {
    await fake.waitFor({ predicate: () => fake.commands.length === slashCommands.length, what: 'the slash commands' });
    const used = fake.slashCommand({ channelId: dm, user: owner, name: 'status' });
    const answered = await fake.waitFor({ predicate: () => fake.interaction({ id: used.id })?.callback, what: 'the interaction callback' });
    assert.equal(answered.type, 4);
    assert.equal(answered.data['content'], 'Running /status…');
    assert.equal(Number(answered.data['flags']) & 64, 64, 'ephemeral');
    assert.ok(answered.at - used.createdAt < 3_000, "within Discord's 3 s");
    const reply = await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).find((m) => m.content.startsWith('Session:')), what: 'the status reply' });
    assert.match(reply.content, /Model: /);
    assert.match(reply.content, /discord connected/);
    assert.equal(reply.message_reference, undefined, 'no reply reference to the interaction (it is not a message)');
    assert.equal(h.fake.requests.length, 0, 'the model was not asked');
  } finally {
    await stop({ h, fake });
  }
});

test('discord slash command with its text option: the option arrives as the command\'s text (/approve bogus)', { timeout: 20_000 }, async () => {
  const { h, fake, dm } = await start();
  try {
    await fake.waitFor({ predicate: () => fake.commands.length === slashCommands.length, what: 'the slash commands' });
    const approve = fake.commands.find((command) => command['name'] === 'approve');
    assert.deepEqual(approve?.['options'], [{ type: 3, name: 'scope', description: 'session or always (empty: once)', required: false }]);
    assert.equal(fake.commands.find((command) => command['name'] === 'status')?.['options'], undefined, 'a command without text has no option');
    for (const name of ['queue', 'steer']) assert.deepEqual(fake.commands.find((command) => command['name'] === name)?.['options'], [{ type: 3, name: 'text', description: 'the message', required: false }], name);
    fake.slashCommand({ channelId: dm, user: owner, name: 'approve', values: { scope: 'bogus' } });
    const reply = await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).find((m) => m.content.startsWith('Unknown answer')), what: 'the reply' });
    assert.match(reply.content, /Unknown answer "bogus"/);
  } finally {
    await stop({ h, fake });
  }
});

test('discord MEDIA over max_file_size: the reply says so and nothing is uploaded', { timeout: 20_000 }, async () => {
  const { h, fake, dm } = await start({ discord: { max_file_size: '1k' } });
  try {
    const big = path.join(h.profile.workspaceDir, 'report.pdf');
    writeFileSync(big, Buffer.alloc(4096, 1));
    h.fake.enqueue({ text: `Here is the report.\nMEDIA:${big}\n` });
    fake.messageCreate({ channelId: dm, author: owner, content: 'send me the report' });
    const note = await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).find((m) => m.content.includes('Could not attach')), timeoutMs: 10_000, what: 'the note' });
    await h.runner.waitIdle();
    assert.match(note.content, /report\.pdf: it is 4 KB, over the 1 KB Discord upload limit \(platforms\.discord\.max_file_size\)/);
    const messages = fake.channelMessages({ channelId: dm });
    assert.ok(messages.some((m) => m.content === 'Here is the report.'), 'the text arrived');
    assert.deepEqual(messages.flatMap((m) => m.attachments), [], 'nothing was uploaded');
    assert.equal(fake.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/messages')).length, messages.length);
  } finally {
    await stop({ h, fake });
  }
});

test('discord allowed_roles: a member with the role may talk, one without it may not', { timeout: 20_000 }, async () => {
  const { h, fake } = await start({ discord: { allowed_roles: [helperRole] } });
  try {
    h.fake.setResponder(() => ({ text: 'hello helper' }));
    fake.messageCreate({ channelId: general, author: stranger, content: `<@${bot.id}> hi`, mentions: [bot], roles: ['400000000000000002'] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(h.fake.requests.length, 0, 'no role, no answer');
    fake.messageCreate({ channelId: general, author: member, content: `<@${bot.id}> hi`, mentions: [bot], roles: [helperRole] });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: general }).some((m) => m.content === 'hello helper'), what: 'the answer' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    const used = fake.slashCommand({ channelId: general, user: member, name: 'help', roles: [helperRole] });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: general }).some((m) => m.content.startsWith('Commands:')), what: 'the /help reply' });
    assert.equal(fake.interaction({ id: used.id })?.callback?.data['content'], 'Running /help…');
  } finally {
    await stop({ h, fake });
  }
});

test('discord auto_thread: a mention opens a thread, the answer and the session continue there without mentions', { timeout: 25_000 }, async () => {
  const { h, fake } = await start({ discord: { auto_thread: true } });
  try {
    let turn = 0;
    h.fake.setResponder(() => ({ text: `answer ${++turn}` }));
    const asked = fake.messageCreate({ channelId: general, author: owner, content: `<@${bot.id}> plan my week`, mentions: [bot] });
    const threadId = String(asked['id']);
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: threadId }).some((m) => m.content === 'answer 1'), what: 'the answer in the thread' });
    assert.equal(fake.channel({ channelId: threadId })?.['name'], 'plan my week');
    assert.equal(fake.channel({ channelId: threadId })?.['parent_id'], general);
    assert.deepEqual(fake.channelMessages({ channelId: general }), [], 'nothing answered in the channel itself');
    await h.runner.waitIdle();
    fake.messageCreate({ channelId: threadId, author: owner, content: 'and next week?' });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: threadId }).some((m) => m.content === 'answer 2'), what: 'the second answer' });
    await h.runner.waitIdle();
    const history = (h.fake.requests[1]?.body.messages ?? []).map((m) => m['content']);
    assert.ok(history.includes('plan my week'), 'the thread continues the same session');
    fake.messageCreate({ channelId: general, author: owner, content: 'no mention here' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(h.fake.requests.length, 2, 'the channel itself still needs a mention');
  } finally {
    await stop({ h, fake });
  }
});
