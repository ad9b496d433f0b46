import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { ChatPacer } from '../../../src/gateway/delivery/pacer.js';
import { SentMessages, type DeliveryJournal, type JournalRow, type SendIntent } from '../../../src/gateway/delivery/sent-messages.js';
import { StreamDelivery } from '../../../src/gateway/delivery/stream.js';
import { systemClock } from '../../../src/core/clock.js';
import { FakeTelegram } from '../../fakes/telegram/index.js';
import { telegramAdapter, testToken } from '../../helpers/telegram.js';

const logger = pino({ level: 'silent' });
const chat = { id: '77', kind: 'dm' as const };
const owner = { chat: { id: 77, type: 'private' as const }, from: { id: 77, first_name: 'Owner' } };

/** A journal in memory, with the ids other turns hold. */
function memoryJournal(params: { claimed?: readonly string[] } = {}): DeliveryJournal & { rows: JournalRow[]; intents: SendIntent[] } {
  const rows: JournalRow[] = [];
  const intents: SendIntent[] = [];
  return {
    rows,
    intents,
    record: (row) => rows.push(row),
    intend: (intent) => intents.push(intent),
    claimedIds: () => new Set(params.claimed ?? []),
  };
}

async function withFake(run: (params: { fake: FakeTelegram; cacheDir: string }) => Promise<void>): Promise<void> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-tg-interrupted-'));
  try {
    await run({ fake, cacheDir });
  } finally {
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

test('the first sendMessage\'s answer is lost (connection dropped after Telegram took it): the stream adopts that message, no second one', { timeout: 20_000 }, async () => {
  await withFake(async ({ fake, cacheDir }) => {
    const asked = fake.pushMessage({ ...owner, text: 'answer me' });
    const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger });
    fake.failNext({ method: 'sendMessage', drop: 'after' });
    const journal = memoryJournal();
    const delivery = new StreamDelivery({
      adapter, chat, replyToId: `77:${asked.message?.message_id ?? 0}`, pacer: new ChatPacer({ clock: systemClock, intervalMs: 50, maxChats: 4 }),
      chatKey: '77', clock: systemClock, cursor: ' ▉', journal, logger,
    });
    delivery.push('INFL-');
    await fake.waitFor({ predicate: (f) => f.callsTo('sendMessage').some((c) => c.status === 0) });
    delivery.push(' and the rest.');
    const result = await delivery.finish();
    const shown = fake.chatMessages(77).map((m) => m.shown);
    assert.deepEqual(shown, ['INFL- and the rest.'], `the chat shows ${JSON.stringify(shown)}`);
    assert.equal(result.textComplete, true);
    assert.equal(fake.callsTo('sendMessage').length, 1, 'sent once');
    assert.equal(journal.intents.length, 1, 'the send was journaled before its call');
  });
});

test('looking for an interrupted send skips the outbox\'s messages (another turn showing the same text) and users\' messages', { timeout: 20_000 }, async () => {
  await withFake(async ({ fake, cacheDir }) => {
    const asked = fake.pushMessage({ ...owner, text: 'answer me' });
    const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger });
    // Another turn's message (sent before a restart) right after the question, showing exactly the text this send will show.
    const other = await telegramAdapter({ fake, cacheDir, clock: systemClock, logger }).send({ chat, text: 'INFL- ▉' });
    fake.pushMessage({ ...owner, text: 'and another thing' });
    const journal = memoryJournal({ claimed: [other.messageId] });
    const messages = new SentMessages({ adapter, chat, replyToId: `77:${asked.message?.message_id ?? 0}`, journal, clock: systemClock, logger });
    fake.failNext({ method: 'sendMessage', drop: 'after' });
    await assert.rejects(messages.put({ seq: 0, text: 'INFL- ▉', state: 'open' }));
    await messages.put({ seq: 0, text: 'INFL- done.', state: 'final' });
    const bot = fake.chatMessages(77);
    assert.deepEqual(bot.map((m) => [m.message_id, m.shown, m.edits]), [
      [Number(other.messageId), 'INFL- ▉', 0],
      [4, 'INFL- done.', 1],
    ]);
    assert.deepEqual(messages.ids(), ['4']);
    assert.deepEqual(journal.rows.map((r) => [r.seq, r.platformMessageId, r.text]), [[0, '4', 'INFL- ▉'], [0, '4', 'INFL- done.']]);
  });
});

test('a send that never reached Telegram is sent anew after a bounded search (no message left behind, none doubled)', { timeout: 20_000 }, async () => {
  await withFake(async ({ fake, cacheDir }) => {
    const asked = fake.pushMessage({ ...owner, text: 'answer me' });
    const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger });
    const pending: SendIntent = { seq: 0, nonce: 'never-sent', text: 'INFL- ▉', sentAt: systemClock.now(), afterId: `77:${asked.message?.message_id ?? 0}` };
    const messages = new SentMessages({ adapter, chat, replyToId: pending.afterId ?? '', journal: memoryJournal(), pending: [pending], clock: systemClock, logger });
    await messages.put({ seq: 0, text: 'INFL- done.', state: 'final' });
    assert.deepEqual(fake.chatMessages(77).map((m) => m.shown), ['INFL- done.']);
    assert.equal(fake.callsTo('editMessageText').length, 3, 'three unknown ids in a row end the search');
  });
});

test('looking for an interrupted send never edits a message this process sent for something else (a command\'s answer, not journaled)', { timeout: 20_000 }, async () => {
  await withFake(async ({ fake, cacheDir }) => {
    const asked = fake.pushMessage({ ...owner, text: 'answer me' });
    const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger });
    const status = await adapter.send({ chat, text: 'Status: busy answering.' });
    const messages = new SentMessages({ adapter, chat, replyToId: `77:${asked.message?.message_id ?? 0}`, journal: memoryJournal(), clock: systemClock, logger });
    fake.failNext({ method: 'sendMessage', drop: 'after' });
    await assert.rejects(messages.put({ seq: 0, text: 'INFL- ▉', state: 'open' }));
    await messages.put({ seq: 0, text: 'INFL- done.', state: 'final' });
    assert.deepEqual(fake.chatMessages(77).map((m) => [m.message_id, m.shown, m.edits]), [
      [Number(status.messageId), 'Status: busy answering.', 0],
      [3, 'INFL- done.', 1],
    ]);
  });
});

test('after a restart, the search never edits a message the previous process sent for something else (its ids are kept in the adapter storage)', { timeout: 20_000 }, async () => {
  await withFake(async ({ fake, cacheDir }) => {
    const kept = new Map<string, string>();
    const storage = { get: ({ name }: { name: string }) => kept.get(name), set: ({ name, value }: { name: string; value: string }) => void kept.set(name, value) };
    /** Starts an adapter (one gateway process) polling the fake; resolves its stop function. */
    const run = async (): Promise<{ adapter: ReturnType<typeof telegramAdapter>; stop: () => Promise<void> }> => {
      const adapter = telegramAdapter({ fake, cacheDir, clock: systemClock, logger });
      const controller = new AbortController();
      const running = adapter.start({ signal: controller.signal, emit: async () => undefined, report: () => undefined, storage, mayTalk: () => true, choose: async () => ({}) });
      return { adapter, stop: async () => { controller.abort(); await running.catch(() => undefined); } };
    };
    const asked = fake.pushMessage({ ...owner, text: 'answer me' });
    const first = await run();
    const replyToId = `77:${asked.message?.message_id ?? 0}`;
    const journal = memoryJournal();
    // The previous process answered a command (no journal holds it), then died while its first preview was in flight.
    const status = await first.adapter.send({ chat, text: 'Status: busy answering.' });
    const before = new SentMessages({ adapter: first.adapter, chat, replyToId, journal, clock: systemClock, logger });
    fake.failNext({ method: 'sendMessage', drop: 'after' });
    await assert.rejects(before.put({ seq: 0, text: 'INFL- ▉', state: 'open' }));
    await first.stop();
    const second = await run();
    try {
      const after = new SentMessages({ adapter: second.adapter, chat, replyToId, journal, pending: journal.intents, clock: systemClock, logger });
      await after.put({ seq: 0, text: 'INFL- done.', state: 'final' });
      assert.deepEqual(fake.chatMessages(77).map((m) => [m.message_id, m.shown]), [
        [Number(status.messageId), 'Status: busy answering.'],
        [Number(status.messageId) + 1, 'INFL- done.'],
      ], 'the command answer is untouched and the preview became the answer');
    } finally {
      await second.stop();
    }
  });
});
