import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import type { BotMessage } from '../fakes/telegram/types.js';
import { clarifyResult, scriptClarify } from '../helpers/clarify.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { driveUntil } from '../helpers/jobs.js';
import { keyboardLabels, messageNow } from '../helpers/telegram-buttons.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const member = { id: 3003, first_name: 'Member' };
const dm = { id: 1001, type: 'private' as const };
const group = { id: -100777, type: 'supergroup' as const, title: 'Team' };

/** A whole gateway with the real grammy adapter against a fake Telegram whose owner is 1001. */
async function start(params: { clock?: Clock } = {}): Promise<{ h: Harness; fake: FakeTelegram; close: () => Promise<void> }> {
  const fake = new FakeTelegram({ token: testToken, ...(params.clock instanceof FakeClock ? { clock: params.clock } : {}) });
  await fake.start();
  fake.addChat({ id: owner.id, type: 'private', first_name: owner.first_name });
  fake.addChat(group);
  const h = await startHarness({
    ...(params.clock ? { clock: params.clock } : {}),
    // No background review: its model calls would take the scripted replies.
    config: { timezone: 'UTC', skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: TelegramAdapter; allow: string[]; mergeWindowMs: number }[] => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [String(owner.id)] } }), allow: [String(owner.id)], mergeWindowMs: 0 },
    ],
  });
  return {
    h,
    fake,
    close: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

/** The clarify questions the bot sent in a chat (not the reply's `❓ clarify` progress line). */
function questions(fake: FakeTelegram, chatId: number = dm.id): BotMessage[] {
  return fake.chatMessages(chatId).filter((m) => m.shown.startsWith('❓ ') && !m.shown.startsWith('❓ clarify'));
}

async function waitQuestion(fake: FakeTelegram, chatId: number = dm.id): Promise<BotMessage> {
  await fake.waitFor({ predicate: (f) => questions(f, chatId).length >= 1, timeoutMs: 15_000 });
  const q = questions(fake, chatId)[0];
  assert.ok(q);
  return q;
}

/** The labels of the inline keyboard a message shows now (in the owner's DM unless `chatId`), row by row. */
function labels(fake: FakeTelegram, q: BotMessage, chatId: number = dm.id): string[][] {
  return keyboardLabels(fake, q, chatId);
}

/** The message as the fake holds it now (after edits; in the owner's DM unless `chatId`). */
function now(fake: FakeTelegram, q: BotMessage, chatId: number = dm.id): BotMessage {
  return messageNow(fake, q, chatId);
}

async function waitShown(fake: FakeTelegram, text: string, chatId: number = dm.id): Promise<void> {
  await fake.waitFor({ predicate: (f) => f.chatMessages(chatId).some((m) => m.shown === text), timeoutMs: 15_000 });
}

test('telegram: clarify with choices shows an inline keyboard; the owner presses one → the callback is answered, the model\'s next request holds the choice, the question is edited without its keyboard', { timeout: 60_000 }, async () => {
  const { h, fake, close } = await start();
  try {
    scriptClarify(h, { question: 'Which colour for the logo?', choices: ['Red', 'Blue', 'Green'], final: 'Blue it is' });
    fake.pushMessage({ chat: dm, from: owner, text: 'make a logo' });
    const q = await waitQuestion(fake);
    assert.equal(q.shown, '❓ Which colour for the logo?\n\nPress a button, or reply with your own answer. No answer in 5 min: the agent goes on without one.');
    assert.deepEqual(labels(fake, q).flat(), ['Red', 'Blue', 'Green']);
    assert.ok(fake.buttons({ chatId: dm.id, messageId: q.message_id }).flat().every((b) => /^cl:[0-9a-f]{12}:[0-2]$/.test(b.data)));
    assert.equal(h.fake.requests.length, 1);
    fake.press({ chatId: dm.id, messageId: q.message_id, from: owner, label: 'Blue' });
    await waitShown(fake, 'Blue it is');
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    assert.equal(clarifyResult(h), 'Blue');
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined });
    assert.equal(fake.presses[0]?.answer?.text, '✅ Owner answered: Blue');
    assert.equal(now(fake, q).shown, '❓ Which colour for the logo?\n\n✅ Owner answered: Blue');
    assert.deepEqual(labels(fake, q), [], 'the answered question still has its keyboard');
  } finally {
    await close();
  }
});

test('telegram: the owner\'s next text message answers instead of pressing ("2" picks choice 2); it starts no turn of its own', { timeout: 60_000 }, async () => {
  const { h, fake, close } = await start();
  try {
    scriptClarify(h, { question: 'Which branch?', choices: ['main', 'release'], final: 'using release' });
    fake.pushMessage({ chat: dm, from: owner, text: 'deploy it' });
    const q = await waitQuestion(fake);
    fake.pushMessage({ chat: dm, from: owner, text: '2' });
    await waitShown(fake, 'using release');
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2, 'the answer started a turn');
    assert.equal(clarifyResult(h), 'release');
    assert.equal(now(fake, q).shown, '❓ Which branch?\n\n✅ Owner answered: release');
    assert.deepEqual(labels(fake, q), []);
  } finally {
    await close();
  }
});

test('telegram group: a member who is not the owner presses a choice → "Only the owner can answer this.", the question still waits; the owner\'s press answers', { timeout: 60_000 }, async () => {
  const { h, fake, close } = await start();
  try {
    scriptClarify(h, { question: 'Ship it?', choices: ['Yes', 'No'], final: 'not shipping' });
    fake.pushMessage({ chat: group, from: owner, text: '@hermes_test_bot ready to ship?' });
    const q = await waitQuestion(fake, group.id);
    assert.match(q.shown, /Only the owner can answer\./);
    fake.press({ chatId: group.id, messageId: q.message_id, from: member, label: 'Yes' });
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined });
    assert.equal(fake.presses[0]?.answer?.text, 'Only the owner can answer this.');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(h.fake.requests.length, 1, 'a member\'s press ended the wait');
    assert.equal(labels(fake, q, group.id).flat().length, 2);
    fake.press({ chatId: group.id, messageId: q.message_id, from: owner, label: 'No' });
    await waitShown(fake, 'not shipping', group.id);
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'No');
  } finally {
    await close();
  }
});

test('telegram: no answer within tools.clarify_timeout (fake clock) → "no answer" in the model\'s next request; the question says so without its keyboard', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, close } = await start({ clock });
  try {
    scriptClarify(h, { question: 'Which colour?', choices: ['Red', 'Blue'], final: 'went with red' });
    fake.pushMessage({ chat: dm, from: owner, text: 'make a logo' });
    await driveUntil({ clock, check: () => questions(fake).length === 1, what: 'the question', stepMs: 100 });
    const q = questions(fake)[0];
    assert.ok(q);
    await clock.advance(4 * 60_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 1, 'it gave up before the timeout');
    assert.equal(labels(fake, q).flat().length, 2);
    await driveUntil({ clock, check: () => fake.chatMessages(dm.id).some((m) => m.shown === 'went with red'), what: 'the final answer', stepMs: 1000 });
    await h.runner.waitIdle();
    assert.match(clarifyResult(h) ?? '', /^No answer: no answer from the owner within 5 min\. Go on without it/);
    assert.equal(now(fake, q).shown, '❓ Which colour?\n\n⌛ No answer in 5 min — the agent goes on without one');
    assert.deepEqual(labels(fake, q), []);
    assert.equal(fake.presses.length, 0);
  } finally {
    await close();
  }
});
