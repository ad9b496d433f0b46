import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import { systemClock } from '../../src/core/clock.js';
import { choices, runAdapter, type RunningAdapter, serveRoutes } from '../helpers/buttons.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { FakeTelegram } from '../fakes/telegram/index.js';

const logger = pino({ level: 'silent' });
const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const member = { id: 3003, first_name: 'Member' };
const dmChat = { id: '1001', kind: 'dm' as const };
const group = { id: -100777, type: 'supergroup' as const, title: 'Team' };

async function withTelegram(
  run: (params: { fake: FakeTelegram; adapter: TelegramAdapter; running: RunningAdapter }) => Promise<void>,
  options: { overrides?: Record<string, unknown>; mayTalk?: (sender: { id: string }) => boolean; webhook?: boolean } = {},
): Promise<void> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  fake.addChat({ id: owner.id, type: 'private', first_name: owner.first_name });
  fake.addChat(group);
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-tg-buttons-'));
  const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger, ...(options.overrides ? { overrides: options.overrides } : {}) });
  const server = options.webhook === true ? await serveRoutes({ adapter }) : undefined;
  const running = runAdapter({ adapter, ...(options.mayTalk ? { mayTalk: options.mayTalk } : {}) });
  try {
    await running.connected();
    await run({ fake, adapter, running: Object.assign(running, { base: server?.base }) });
  } finally {
    await running.stop();
    await server?.close();
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

test('telegram buttons: four choices are two rows of two inline buttons whose callback_data is the choice id; the text is as without them', { timeout: 20_000 }, async () => {
  await withTelegram(async ({ fake, adapter }) => {
    const { messageId } = await adapter.send({ chat: dmChat, text: 'Run **rm -rf build**?', choices });
    assert.deepEqual(fake.buttons({ chatId: owner.id, messageId: Number(messageId) }), [
      [{ text: 'Allow once', data: 'appr:k1:once' }, { text: 'Allow for this session', data: 'appr:k1:session' }],
      [{ text: 'Always allow', data: 'appr:k1:always' }, { text: 'Deny', data: 'appr:k1:deny' }],
    ]);
    assert.equal(fake.chatMessages(owner.id)[0]?.shown, 'Run rm -rf build?');
    const two = await adapter.send({ chat: dmChat, text: 'Yes or no?', choices: [{ id: 'q:1:y', label: 'Yes' }, { id: 'q:1:n', label: 'No' }] });
    assert.deepEqual(fake.buttons({ chatId: owner.id, messageId: Number(two.messageId) }), [[{ text: 'Yes', data: 'q:1:y' }, { text: 'No', data: 'q:1:n' }]]);
    const plain = await adapter.send({ chat: dmChat, text: 'no buttons' });
    assert.deepEqual(fake.buttons({ chatId: owner.id, messageId: Number(plain.messageId) }), []);
    assert.equal(fake.callsTo('sendMessage').at(-1)?.params['reply_markup'], undefined, 'an ordinary send carries no reply_markup');
  });
});

test('telegram buttons: a file sent with choices carries them too', { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-tg-buttons-file-'));
  try {
    const file = path.join(dir, 'plan.txt');
    writeFileSync(file, 'the plan');
    await withTelegram(async ({ fake, adapter }) => {
      const { messageId } = await adapter.send({ chat: dmChat, text: 'Apply this plan?', attachments: [{ path: file, kind: 'document' }], choices: choices.slice(0, 2) });
      assert.deepEqual(fake.buttons({ chatId: owner.id, messageId: Number(messageId) }), [[{ text: 'Allow once', data: 'appr:k1:once' }, { text: 'Allow for this session', data: 'appr:k1:session' }]]);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('telegram buttons: the fake refuses callback_data over 64 bytes like the Bot API (400 BUTTON_DATA_INVALID)', { timeout: 20_000 }, async () => {
  await withTelegram(async ({ fake, adapter }) => {
    await assert.rejects(adapter.send({ chat: dmChat, text: 'too long', choices: [{ id: `x:${'y'.repeat(63)}`, label: 'Go' }] }), /BUTTON_DATA_INVALID/);
    assert.equal(fake.chatMessages(owner.id).length, 0);
    await adapter.send({ chat: dmChat, text: 'just fits', choices: [{ id: `x:${'y'.repeat(62)}`, label: 'Go' }] });
    assert.equal(fake.chatMessages(owner.id).length, 1);
  });
});

test('telegram buttons: an edit with choices keeps them, an edit without choices removes them, a streamed edit stays as before', { timeout: 20_000 }, async () => {
  await withTelegram(async ({ fake, adapter }) => {
    const { messageId } = await adapter.send({ chat: dmChat, text: 'Run it?', choices });
    const id = Number(messageId);
    await adapter.edit({ chat: dmChat, messageId, text: 'Run it? (still waiting)', choices });
    assert.equal(fake.buttons({ chatId: owner.id, messageId: id }).flat().length, 4, 'kept');
    await adapter.edit({ chat: dmChat, messageId, text: 'Denied.' });
    assert.deepEqual(fake.buttons({ chatId: owner.id, messageId: id }), [], 'removed');
    assert.equal(fake.chatMessages(owner.id)[0]?.shown, 'Denied.');
    const edits = fake.callsTo('editMessageText');
    assert.equal(edits.length, 2);
    assert.equal(edits[1]?.params['reply_markup'], undefined, 'an edit without choices sends no reply_markup (the same call as a streamed edit)');
    assert.deepEqual(Object.keys(edits[1]?.params ?? {}).sort(), ['chat_id', 'message_id', 'parse_mode', 'text']);
  });
});

test('telegram buttons over long polling: a press reaches choose (presser, chat, message, choice), the notice answers it, retire removes the keyboard, no message is emitted', { timeout: 20_000 }, async () => {
  await withTelegram(async ({ fake, adapter, running }) => {
    assert.ok(fake.callsTo('getUpdates').every((c) => (c.params['allowed_updates'] as string[]).includes('callback_query')), 'polling asks for callback_query');
    const { messageId } = await adapter.send({ chat: dmChat, text: 'Run it?', choices });
    running.answer = { notice: 'Denied.' };
    fake.press({ chatId: owner.id, messageId: Number(messageId), from: owner, label: 'Deny' });
    await running.waitPresses({ count: 1 });
    assert.deepEqual(running.presses[0], {
      platform: 'telegram',
      chat: { id: '1001', kind: 'dm' },
      sender: { id: '1001', name: 'Owner', username: 'owner', isBot: false },
      messageId,
      choiceId: 'appr:k1:deny',
    });
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined });
    assert.equal(fake.presses[0]?.answer?.text, 'Denied.');
    assert.equal(fake.buttons({ chatId: owner.id, messageId: Number(messageId) }).flat().length, 4, 'not retired: the buttons stay');
    assert.equal(fake.callsTo('editMessageReplyMarkup').length, 0);
    running.answer = { notice: 'This question was already answered or has expired.', retire: true };
    fake.press({ chatId: owner.id, messageId: Number(messageId), from: owner, label: 'Allow once' });
    await fake.waitFor({ predicate: (f) => f.buttons({ chatId: owner.id, messageId: Number(messageId) }).length === 0 });
    assert.equal(fake.presses[1]?.answer?.text, 'This question was already answered or has expired.');
    assert.equal(running.presses[1]?.choiceId, 'appr:k1:once');
    assert.equal(fake.chatMessages(owner.id)[0]?.shown, 'Run it?', 'retiring keeps the text');
    assert.equal(running.emitted.length, 0, 'a press never becomes a message');
  });
});

test('telegram buttons: a group member who may not talk still reaches choose (the gateway decides), never a turn', { timeout: 20_000 }, async () => {
  await withTelegram(async ({ fake, adapter, running }) => {
    const { messageId } = await adapter.send({ chat: { id: String(group.id), kind: 'group' }, text: 'Run it?', choices });
    running.answer = { notice: 'Only the owner can answer this.' };
    fake.press({ chatId: group.id, messageId: Number(messageId), from: member, data: 'appr:k1:once' });
    await running.waitPresses({ count: 1 });
    assert.equal(running.presses[0]?.sender.id, '3003');
    assert.deepEqual(running.presses[0]?.chat, { id: String(group.id), kind: 'group' });
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer?.text === 'Only the owner can answer this.' });
    assert.equal(running.emitted.length, 0);
  }, { mayTalk: (sender) => sender.id === '1001' });
});

test('telegram buttons: a callback without data or on a message that is not the bot\'s is answered and goes nowhere', { timeout: 20_000 }, async () => {
  await withTelegram(async ({ fake, adapter, running }) => {
    const { messageId } = await adapter.send({ chat: dmChat, text: 'Run it?', choices });
    const bot = fake.chatMessages(owner.id)[0];
    assert.ok(bot);
    const message = { message_id: Number(messageId), date: 1, chat: { id: owner.id, type: 'private', first_name: 'Owner' }, from: { id: 999, is_bot: true, first_name: 'Other' }, text: 'x' };
    fake.pushRaw({ callback_query: { id: 'q-nodata', from: { ...owner, is_bot: false }, chat_instance: 'c', message: { ...message, from: fake.bot } } } as never);
    fake.pushRaw({ callback_query: { id: 'q-inline', from: { ...owner, is_bot: false }, chat_instance: 'c', inline_message_id: 'i1', data: 'appr:k1:once' } } as never);
    fake.pushRaw({ callback_query: { id: 'q-other', from: { ...owner, is_bot: false }, chat_instance: 'c', message, data: 'appr:k1:once' } } as never);
    await fake.waitFor({ predicate: (f) => f.callsTo('answerCallbackQuery').length === 3 });
    assert.deepEqual(fake.callsTo('answerCallbackQuery').map((c) => c.params['callback_query_id']).sort(), ['q-inline', 'q-nodata', 'q-other']);
    assert.equal(running.presses.length, 0);
    assert.equal(running.emitted.length, 0);
  });
});

test('telegram buttons over the webhook: setWebhook asks for callback_query; a press POSTed to the route reaches choose and is answered', { timeout: 20_000 }, async () => {
  const secret = 'a-very-secret-token-456';
  await withTelegram(async ({ fake, adapter, running }) => {
    assert.ok(fake.webhook);
    const setWebhook = fake.callsTo('setWebhook')[0];
    assert.ok((setWebhook?.params['allowed_updates'] as string[]).includes('callback_query'), 'the webhook asks for callback_query');
    const base = (running as RunningAdapter & { base?: string }).base;
    assert.ok(base);
    const { messageId } = await adapter.send({ chat: dmChat, text: 'Run it?', choices });
    const malformed = await fetch(`${base}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify({ update_id: 5, callback_query: { id: 'q-bad', data: 'appr:k1:once' } }),
    });
    assert.equal(malformed.status, 200, 'a press of an unexpected shape is answered 200 and skipped');
    const forged = await fetch(`${base}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'wrong-secret-token-xx' },
      body: JSON.stringify({ update_id: 6, callback_query: { id: 'q-forged', from: { ...owner, is_bot: false }, chat_instance: 'c', data: 'appr:k1:once' } }),
    });
    assert.equal(forged.status, 401);
    assert.equal(running.presses.length, 0);
    running.answer = { notice: 'Allowed once.', retire: true };
    const { status } = await fake.pressViaWebhook({ url: `${base}/telegram/webhook`, chatId: owner.id, messageId: Number(messageId), from: owner, label: 'Allow once' });
    assert.equal(status, 200);
    assert.equal(running.presses[0]?.choiceId, 'appr:k1:once');
    assert.equal(running.presses[0]?.messageId, messageId);
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer?.text === 'Allowed once.' && f.buttons({ chatId: owner.id, messageId: Number(messageId) }).length === 0 });
    assert.equal(fake.callsTo('getUpdates').length, 0);
    assert.equal(running.emitted.length, 0);
  }, { webhook: true, overrides: { mode: 'webhook', webhook: { url: 'https://bot.example.com/telegram/webhook', secret_token: secret } } });
});
