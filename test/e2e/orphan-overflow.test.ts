import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import type { AdapterStartParams, ChatRef, PlatformAdapter } from '../../src/core/adapter.js';
import { ChatPacer } from '../../src/gateway/delivery/pacer.js';
import type { ExistingMessage, SendIntent } from '../../src/gateway/delivery/sent-messages.js';
import { StreamDelivery } from '../../src/gateway/delivery/stream.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { discordAdapter, discordToken, testGuild } from '../helpers/discord.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const logger = pino({ level: 'silent' });

/** The replay of a turn whose crash cut the send of its second part, finishing with a reply that fits one message. */
async function replayShorter(params: { adapter: PlatformAdapter; chat: ChatRef; replyToId: string; existing: ExistingMessage[]; pending: SendIntent[]; text: string }): Promise<string[]> {
  const delivery = new StreamDelivery({
    adapter: params.adapter,
    chat: params.chat,
    replyToId: params.replyToId,
    pacer: new ChatPacer({ clock: systemClock, intervalMs: 50, maxChats: 4 }),
    chatKey: params.chat.id,
    clock: systemClock,
    cursor: ' ▉',
    journal: { record: () => undefined, intend: () => undefined, claimedIds: () => new Set() },
    existing: params.existing,
    pending: params.pending,
    logger,
  });
  delivery.push(params.text);
  const result = await delivery.finish();
  assert.equal(result.textComplete, true, result.errors.join('; '));
  return result.messageIds;
}

test('telegram: a second part whose send was cut by the crash is closed even when the replay\'s answer fits one message', { timeout: 20_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-overflow-'));
  try {
    const chat: ChatRef = { id: '77', kind: 'dm' };
    const asked = fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner' }, text: 'answer me' });
    const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger });
    const first = await adapter.send({ chat, text: 'part one ▉' });
    // The crashed process sent part two; Telegram took it, the answer never came back.
    await telegramAdapter({ fake, cacheDir, clock: systemClock, logger }).send({ chat, text: 'part two ▉' });
    const ids = await replayShorter({
      adapter, chat, replyToId: `77:${asked.message?.message_id ?? 0}`, text: 'A short answer.',
      existing: [{ seq: 0, platformMessageId: first.messageId, text: 'part one ▉' }],
      pending: [{ seq: 1, nonce: 'n1', text: 'part two ▉', sentAt: systemClock.now(), afterId: first.messageId }],
    });
    assert.deepEqual(fake.chatMessages(77).map((m) => m.shown), ['A short answer.', '…'], 'no streaming preview is left');
    assert.equal(ids.length, 2);
  } finally {
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

async function discordSide(params: { fake: FakeDiscord; cacheDir: string }): Promise<{ adapter: PlatformAdapter; stop: () => Promise<void> }> {
  const adapter = discordAdapter({ fake: params.fake, cacheDir: params.cacheDir, clock: systemClock, logger });
  const stop = new AbortController();
  let connected = (): void => undefined;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const start: AdapterStartParams = {
    signal: stop.signal,
    emit: async () => undefined,
    report: (report) => { if (report.state === 'connected') connected(); },
    storage: { get: () => undefined, set: () => undefined },
    mayTalk: () => true, choose: async () => ({}),
  };
  const running = adapter.start(start);
  await Promise.race([ready, running]);
  return { adapter, stop: async () => { stop.abort(); await running.catch(() => undefined); } };
}

test('discord: a cut second part the shorter replay no longer needs is closed when it exists, and none is left behind when it never arrived', { timeout: 20_000 }, async () => {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-overflow-'));
  const side = await discordSide({ fake, cacheDir });
  try {
    const ownerId = '200000000000000001';
    const dm = fake.openDm({ userId: ownerId, username: 'owner' });
    const chat: ChatRef = { id: dm, kind: 'dm' };
    const visible = (): string[] => fake.channelMessages({ channelId: dm }).filter((m) => !m.deleted).map((m) => m.content);

    // It exists: the crashed process's send with this nonce reached Discord.
    const asked = fake.messageCreate({ channelId: dm, author: { id: ownerId, username: 'owner' }, content: 'answer me' });
    const sentAt = systemClock.now();
    const one = await side.adapter.send({ chat, text: 'part one ▉' });
    await side.adapter.send({ chat, text: 'part two ▉', nonce: 'nonce-part-two' });
    await new Promise((r) => setTimeout(r, 300));
    await replayShorter({
      adapter: side.adapter, chat, replyToId: String(asked['id']), text: 'A short answer.',
      existing: [{ seq: 0, platformMessageId: one.messageId, text: 'part one ▉' }],
      pending: [{ seq: 1, nonce: 'nonce-part-two', text: 'part two ▉', sentAt, afterId: one.messageId }],
    });
    assert.deepEqual(visible(), ['A short answer.', '…']);

    // It never arrived: the lookup creates it, sees it is new, and removes it again.
    const again = fake.messageCreate({ channelId: dm, author: { id: ownerId, username: 'owner' }, content: 'and again' });
    const two = await side.adapter.send({ chat, text: 'second reply ▉' });
    await replayShorter({
      adapter: side.adapter, chat, replyToId: String(again['id']), text: 'Short again.',
      existing: [{ seq: 0, platformMessageId: two.messageId, text: 'second reply ▉' }],
      pending: [{ seq: 1, nonce: 'nonce-never-sent', text: 'its part two ▉', sentAt: systemClock.now() - 10_000, afterId: two.messageId }],
    });
    assert.deepEqual(visible(), ['A short answer.', '…', 'Short again.']);
  } finally {
    await side.stop();
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
