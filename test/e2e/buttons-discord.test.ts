import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { systemClock } from '../../src/core/clock.js';
import { choices, runAdapter, type RunningAdapter } from '../helpers/buttons.js';
import { discordAdapter, discordToken } from '../helpers/discord.js';
import { FakeDiscord } from '../fakes/discord/index.js';

const owner = { id: '200000000000000001', username: 'owner' };
const member = { id: '200000000000000003', username: 'member' };
const general = '300000000000000010';
const guild = { id: '300000000000000001', name: 'Test guild', channels: [{ id: general, name: 'general', type: 0 }] };

async function withDiscord(
  run: (params: { fake: FakeDiscord; adapter: DiscordAdapter; running: RunningAdapter; dm: string }) => Promise<void>,
  options: { mayTalk?: (sender: { id: string }) => boolean } = {},
): Promise<void> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [guild] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-discord-buttons-'));
  const adapter = discordAdapter({ fake, cacheDir, clock: systemClock, logger: pino({ level: 'silent' }) });
  const running = runAdapter({ adapter, ...(options.mayTalk ? { mayTalk: options.mayTalk } : {}) });
  try {
    await running.connected();
    await run({ fake, adapter, running, dm });
  } finally {
    await running.stop();
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

const labels = (rows: { label: string; customId: string }[][]): [string, string][][] => rows.map((row) => row.map((b) => [b.label, b.customId]));

test('discord buttons: four choices are two action rows of two buttons whose custom_id is the choice id; an ordinary message has none', { timeout: 20_000 }, async () => {
  await withDiscord(async ({ fake, adapter, dm }) => {
    const { messageId } = await adapter.send({ chat: { id: dm, kind: 'dm' }, text: 'Run `rm -rf build`?', choices });
    assert.deepEqual(labels(fake.buttons({ messageId })), [
      [['Allow once', 'appr:k1:once'], ['Allow for this session', 'appr:k1:session']],
      [['Always allow', 'appr:k1:always'], ['Deny', 'appr:k1:deny']],
    ]);
    assert.equal(fake.channelMessages({ channelId: dm })[0]?.content, 'Run `rm -rf build`?');
    const plain = await adapter.send({ chat: { id: dm, kind: 'dm' }, text: 'no buttons' });
    assert.deepEqual(fake.buttons({ messageId: plain.messageId }), []);
    const post = fake.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/messages')).at(-1);
    assert.equal((post?.body as Record<string, unknown> | undefined)?.['components'], undefined, 'an ordinary send carries no components');
  });
});

test('discord buttons: the fake refuses a custom_id over 100 characters like Discord (400)', { timeout: 20_000 }, async () => {
  await withDiscord(async ({ fake, adapter, dm }) => {
    await assert.rejects(adapter.send({ chat: { id: dm, kind: 'dm' }, text: 'too long', choices: [{ id: `x:${'y'.repeat(99)}`, label: 'Go' }] }));
    assert.equal(fake.channelMessages({ channelId: dm }).length, 0);
  });
});

test('discord buttons: an edit with choices keeps them, an edit without choices removes them (components: []), a streamed edit is as before', { timeout: 20_000 }, async () => {
  await withDiscord(async ({ fake, adapter, dm }) => {
    const chat = { id: dm, kind: 'dm' as const };
    const { messageId } = await adapter.send({ chat, text: 'Run it?', choices });
    await adapter.edit({ chat, messageId, text: 'Run it? (waiting)', choices });
    assert.equal(fake.buttons({ messageId }).flat().length, 4, 'kept');
    await adapter.edit({ chat, messageId, text: 'Denied.' });
    assert.deepEqual(fake.buttons({ messageId }), [], 'removed');
    assert.equal(fake.channelMessages({ channelId: dm })[0]?.content, 'Denied.');
    const streamed = await adapter.send({ chat, text: 'partial' });
    await adapter.edit({ chat, messageId: streamed.messageId, text: 'partial and more' });
    const patch = fake.calls.filter((c) => c.method === 'PATCH').at(-1);
    const body = (patch?.body as Record<string, unknown> | undefined) ?? {};
    assert.equal(body['content'], 'partial and more');
    assert.equal('components' in body, false, 'a streamed edit carries no components');
  });
});

test('discord buttons: a press is deferred at once (type 6, within 3 s, before choose answers), reaches choose, the notice is an ephemeral follow-up, retire removes the buttons', { timeout: 20_000 }, async () => {
  await withDiscord(async ({ fake, adapter, running }) => {
    const { messageId } = await adapter.send({ chat: { id: general, kind: 'channel' }, text: 'Run it?', choices });
    let open: () => void = () => undefined;
    running.gate = new Promise<void>((resolve) => { open = resolve; });
    running.answer = { notice: 'Only the owner can answer this.' };
    const pressed = fake.press({ messageId, user: member, label: 'Allow once' });
    const deferred = await fake.waitFor({ predicate: () => fake.interaction({ id: pressed.id })?.callback, what: 'the deferred update' });
    assert.equal(deferred.type, 6, 'DEFERRED_UPDATE_MESSAGE');
    assert.ok(deferred.at - pressed.createdAt < 3_000);
    // The deferral is recorded by the fake when its request arrives, before discord.js has its answer and goes on to
    // choose: the press reaches choose a moment later, while choose (gated) has not answered yet.
    await fake.waitFor({ predicate: () => running.presses.length === 1, what: 'the press at choose' });
    assert.equal(running.presses.length, 1, 'choose has the press once');
    assert.equal(fake.interaction({ id: pressed.id })?.followups.length, 0, 'choose has not answered yet');
    open();
    running.gate = undefined;
    assert.deepEqual(running.presses[0], {
      platform: 'discord',
      chat: { id: general, kind: 'channel' },
      sender: { id: member.id, name: 'member', username: 'member', isBot: false, roles: [guild.id] },
      messageId,
      choiceId: 'appr:k1:once',
    });
    const followup = await fake.waitFor({ predicate: () => fake.interaction({ id: pressed.id })?.followups[0], what: 'the notice' });
    assert.equal(followup['content'], 'Only the owner can answer this.');
    assert.equal(Number(followup['flags']) & 64, 64, 'ephemeral');
    assert.equal(fake.buttons({ messageId }).flat().length, 4, 'not retired');
    running.answer = { notice: 'This question was already answered or has expired.', retire: true };
    fake.press({ messageId, user: owner, label: 'Deny' });
    await fake.waitFor({ predicate: () => fake.buttons({ messageId }).length === 0, what: 'the buttons removed' });
    assert.equal(running.presses[1]?.choiceId, 'appr:k1:deny');
    assert.equal(running.presses[1]?.sender.id, owner.id);
    assert.equal(fake.channelMessages({ channelId: general })[0]?.content, 'Run it?', 'retiring keeps the text');
    assert.equal(running.emitted.length, 0, 'a press never becomes a message');
  }, { mayTalk: (sender) => sender.id === owner.id });
});

test('discord buttons: a press in a DM names the DM chat and the presser', { timeout: 20_000 }, async () => {
  await withDiscord(async ({ fake, adapter, running, dm }) => {
    const { messageId } = await adapter.send({ chat: { id: dm, kind: 'dm' }, text: 'Run it?', choices });
    running.answer = { retire: true };
    fake.press({ messageId, user: owner, customId: 'appr:k1:always' });
    await running.waitPresses({ count: 1 });
    assert.deepEqual(running.presses[0]?.chat, { id: dm, kind: 'dm' });
    assert.equal(running.presses[0]?.sender.id, owner.id);
    assert.equal(running.presses[0]?.choiceId, 'appr:k1:always');
    await fake.waitFor({ predicate: () => fake.buttons({ messageId }).length === 0, what: 'the buttons removed' });
  });
});
