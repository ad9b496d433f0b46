import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import type { BotMessage } from '../fakes/telegram/types.js';
import { lastToolResult, scriptCommand } from '../helpers/approvals.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { driveUntil } from '../helpers/jobs.js';
import { keyboardLabels, messageNow } from '../helpers/telegram-buttons.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const member = { id: 3003, first_name: 'Member' };
const dm = { id: 1001, type: 'private' as const };
const group = { id: -100777, type: 'supergroup' as const, title: 'Team' };
const publicUrl = 'https://bot.example.com/telegram/webhook';
const secret = 'approvals-secret-token-0123';
const expired = 'This question was already answered or has expired.';
const head = /^⚠️ The agent wants to run a dangerous command \(terminal\):\nrm -rf build\n• recursive delete \(rm -r\)/;

/** A whole gateway (manual approval, the real terminal with its default sandbox) with the real grammy adapter against a fake Telegram whose owner is 1001. */
interface TgApprovals {
  readonly h: Harness;
  readonly fake: FakeTelegram;
  /** workspace/build (made, with a file in it). */
  readonly build: string;
  close(): Promise<void>;
}

async function start(params: { clock?: Clock; webhook?: boolean } = {}): Promise<TgApprovals> {
  const fake = new FakeTelegram({ token: testToken, ...(params.clock instanceof FakeClock ? { clock: params.clock } : {}) });
  await fake.start();
  fake.addChat({ id: owner.id, type: 'private', first_name: owner.first_name });
  fake.addChat(group);
  const webhook = params.webhook === true ? { mode: 'webhook', webhook: { url: publicUrl, secret_token: secret } } : {};
  const h = await startHarness({
    ...(params.clock ? { clock: params.clock } : {}),
    withHttp: params.webhook === true,
    // No background review: its model calls would take the scripted replies.
    config: { timezone: 'UTC', skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: TelegramAdapter; allow: string[]; mergeWindowMs: number }[] => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [String(owner.id)], ...webhook } }), allow: [String(owner.id)], mergeWindowMs: 0 },
    ],
  });
  const build = path.join(h.profile.workspaceDir, 'build');
  mkdirSync(path.join(build, 'out'), { recursive: true });
  return {
    h,
    fake,
    build,
    close: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

/** The approval questions the bot sent in a chat. */
function questions(fake: FakeTelegram, chatId: number = dm.id): BotMessage[] {
  return fake.chatMessages(chatId).filter((m) => m.shown.startsWith('⚠️ The agent wants to run a dangerous command'));
}

/** Waits (real time) for the `n`th question in the chat. */
async function waitQuestion(fake: FakeTelegram, n = 1, chatId: number = dm.id): Promise<BotMessage> {
  await fake.waitFor({ predicate: (f) => questions(f, chatId).length >= n, timeoutMs: 15_000 });
  const q = questions(fake, chatId)[n - 1];
  assert.ok(q, `question ${n}`);
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

/** The owner writes in the DM (long polling). */
function ownerSays(fake: FakeTelegram, text: string): void {
  fake.pushMessage({ chat: dm, from: owner, text });
}

/** Waits until some bot message in the chat shows `text`. */
async function waitShown(fake: FakeTelegram, text: string, chatId: number = dm.id): Promise<void> {
  await fake.waitFor({ predicate: (f) => f.chatMessages(chatId).some((m) => m.shown === text), timeoutMs: 15_000 });
}

/** The owner presses `label` on `q`; waits until the bot shows `final` in the chat and the gateway is idle. */
async function ownerPresses(params: { h: Harness; fake: FakeTelegram; q: BotMessage; label: string; final: string; chatId?: number }): Promise<void> {
  const chatId = params.chatId ?? dm.id;
  params.fake.press({ chatId, messageId: params.q.message_id, from: owner, label: params.label });
  await waitShown(params.fake, params.final, chatId);
  await params.h.runner.waitIdle();
}

const deniedResult = /^Not run: the owner denied it \(Owner pressed Deny or answered \/deny\)\. Do not retry it; ask the owner or choose another way\.$/;

test('telegram (long polling): rm -rf build asks with four buttons; the owner presses Deny → the callback is answered, the question edited without buttons, not run, the model told', { timeout: 60_000 }, async () => {
  const { h, fake, build, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'ok, I left it');
    ownerSays(fake, 'clean up the build');
    const q = await waitQuestion(fake);
    assert.match(q.shown, head);
    assert.match(q.shown, /Only the owner can answer\. No answer in 5 min means no\.$/);
    assert.deepEqual(labels(fake, q), [['Allow once', 'Allow for this session'], ['Always allow', 'Deny']]);
    assert.ok(fake.buttons({ chatId: dm.id, messageId: q.message_id }).flat().every((b) => /^ap:[0-9a-f]{12}:(once|session|always|deny)$/.test(b.data)));
    assert.equal(h.fake.requests.length, 1, 'the model was asked again before an answer');
    await ownerPresses({ h, fake, q: q, label: 'Deny', final: 'ok, I left it' });
    assert.ok(existsSync(build), 'the denied command ran');
    assert.equal(h.fake.requests.length, 2);
    assert.match(lastToolResult(h), deniedResult);
    const call = h.fake.requests[1]?.body.messages?.find((m) => m['role'] === 'assistant' && JSON.stringify(m['tool_calls'] ?? []).includes('rm -rf build'));
    assert.ok(call, 'the model\'s next request lost the tool call');
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined });
    assert.equal(fake.presses[0]?.answer?.text, '⛔ Denied by Owner');
    const edited = now(fake, q);
    assert.match(edited.shown, head);
    assert.match(edited.shown, /\n\n⛔ Denied by Owner$/);
    assert.deepEqual(labels(fake, q), [], 'the decided question still has buttons');
  } finally {
    await close();
  }
});

test('telegram: Allow once runs rm -rf build (the folder is gone, the model sees exit 0); the same command again asks again', { timeout: 60_000 }, async () => {
  const { h, fake, build, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'cleaned');
    ownerSays(fake, 'clean up the build');
    const q = await waitQuestion(fake);
    await ownerPresses({ h, fake, q: q, label: 'Allow once', final: 'cleaned' });
    assert.equal(existsSync(build), false, 'the allowed command did not run');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined });
    assert.equal(fake.presses[0]?.answer?.text, '✅ Allowed once by Owner');
    assert.match(now(fake, q).shown, /\n\n✅ Allowed once by Owner$/);
    assert.deepEqual(labels(fake, q), []);

    mkdirSync(build);
    scriptCommand(h, 'rm -rf build', 'left it this time');
    ownerSays(fake, 'clean up again');
    const second = await waitQuestion(fake, 2);
    assert.notEqual(second.message_id, q.message_id);
    assert.equal(labels(fake, second).flat().length, 4);
    assert.equal(h.fake.requests.length, 3, 'once allowed more than once');
    await ownerPresses({ h, fake, q: second, label: 'Deny', final: 'left it this time' });
    assert.ok(existsSync(build));
  } finally {
    await close();
  }
});

test('telegram: Always allow → after a gateway restart on the same HERMES_HOME the same command runs without asking', { timeout: 60_000 }, async () => {
  const { h, fake, build, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'cleaned');
    ownerSays(fake, 'clean up the build');
    const q = await waitQuestion(fake);
    await ownerPresses({ h, fake, q: q, label: 'Always allow', final: 'cleaned' });
    assert.equal(existsSync(build), false);
    assert.match(now(fake, q).shown, /\n\n✅ Always allowed by Owner$/);
    await h.restart();
    mkdirSync(build);
    scriptCommand(h, 'rm -rf build', 'gone again');
    ownerSays(fake, 'clean up after the restart');
    await waitShown(fake, 'gone again');
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the always rule did not survive the restart');
    assert.equal(questions(fake).length, 1, 'asked again despite the rule');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
  } finally {
    await close();
  }
});

test('telegram group: a member who is not the owner presses Allow once → a notice, nothing runs, the request still waits; the owner then denies', { timeout: 60_000 }, async () => {
  const { h, fake, build, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'not done');
    fake.pushMessage({ chat: group, from: owner, text: '@hermes_test_bot clean up the build' });
    const q = await waitQuestion(fake, 1, group.id);
    const asked = q.shown;
    fake.press({ chatId: group.id, messageId: q.message_id, from: member, label: 'Allow once' });
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined });
    assert.equal(fake.presses[0]?.answer?.text, 'Only the owner can answer this.');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(existsSync(build), 'a member\'s press ran the command');
    assert.equal(h.fake.requests.length, 1, 'the request stopped waiting');
    assert.equal(labels(fake, q, group.id).flat().length, 4, 'the buttons went away');
    assert.equal(now(fake, q, group.id).shown, asked, 'the question was edited');
    await ownerPresses({ h, fake, q: q, label: 'Deny', final: 'not done', chatId: group.id });
    assert.ok(existsSync(build));
    assert.match(lastToolResult(h), deniedResult);
  } finally {
    await close();
  }
});

test('telegram: no answer within tools.approval_timeout (fake clock) → denied, the question says so without buttons, the model is told', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, build, close } = await start({ clock });
  try {
    scriptCommand(h, 'rm -rf build', 'nobody answered');
    ownerSays(fake, 'clean up the build');
    await driveUntil({ clock, check: () => questions(fake).length === 1, what: 'the question', stepMs: 100 });
    const q = questions(fake)[0];
    assert.ok(q);
    // Four of the five minutes pass: it still waits.
    await clock.advance(4 * 60_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 1, 'denied before the timeout');
    assert.equal(labels(fake, q).flat().length, 4);
    await driveUntil({ clock, check: () => fake.chatMessages(dm.id).some((m) => m.shown === 'nobody answered'), what: 'the final answer', stepMs: 1000 });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the command ran without an answer');
    assert.match(now(fake, q).shown, /\n\n⌛ No answer in 5 min — denied$/);
    assert.deepEqual(labels(fake, q), []);
    assert.match(lastToolResult(h), /^Not run: no answer from the owner within 5 min \(denied\)\. Do not retry it/);
    assert.equal(fake.presses.length, 0);
  } finally {
    await close();
  }
});

test('telegram: a question left with its buttons by a restart (the edit failed) → a press after the restart is answered "expired", its keyboard removed, nothing runs', { timeout: 60_000 }, async () => {
  const { h, fake, build, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'stopped for the restart');
    ownerSays(fake, 'clean up the build');
    const q = await waitQuestion(fake);
    // The unanswered message is taken up again after the restart (the journal): this time the model only answers.
    h.fake.enqueue({ text: 'answered after the restart' });
    // The shutdown's edit of the question fails (as if the gateway had died): its buttons stay on the phone.
    fake.failNext({ method: 'editMessageText', status: 400, count: 1000 });
    await h.restart();
    fake.clearFailures();
    assert.match(h.fake.requests[1]?.body.messages?.filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1) ?? '', /^Not run: not approved: the gateway is stopping\. Do not retry it/);
    await waitShown(fake, 'answered after the restart');
    await h.runner.waitIdle();
    const calls = h.fake.requests.length;
    assert.equal(labels(fake, q).flat().length, 4, 'the test needs the old buttons still shown');
    fake.press({ chatId: dm.id, messageId: q.message_id, from: owner, label: 'Allow once' });
    await fake.waitFor({ predicate: (f) => f.presses[0]?.answer !== undefined && f.buttons({ chatId: dm.id, messageId: q.message_id }).length === 0, timeoutMs: 15_000 });
    assert.equal(fake.presses[0]?.answer?.text, expired);
    assert.match(now(fake, q).shown, head, 'retiring the keyboard changed the text');
    await new Promise((r) => setTimeout(r, 300));
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'an old button acted after the restart');
    assert.equal(h.fake.requests.length, calls, 'the press started a turn');
  } finally {
    await close();
  }
});

test('telegram (webhook): the message and the presses arrive POSTed to the gateway\'s route; Deny then Allow once on a second ask; both callbacks answered', { timeout: 60_000 }, async () => {
  const { h, fake, build, close } = await start({ webhook: true });
  try {
    await fake.waitFor({ predicate: (f) => f.webhook?.url === publicUrl });
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/telegram/webhook`;
    let n = 0;
    const say = async (text: string): Promise<void> => {
      n += 1;
      const update = { update_id: 800_000 + n, message: { message_id: 800_000 + n, date: Math.floor(Date.now() / 1000), chat: { ...dm, first_name: owner.first_name }, from: { ...owner, is_bot: false }, text } };
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret }, body: JSON.stringify(update) });
      assert.equal(res.status, 200);
    };
    scriptCommand(h, 'rm -rf build', 'left it');
    await say('clean up the build');
    const q = await waitQuestion(fake);
    assert.deepEqual(labels(fake, q), [['Allow once', 'Allow for this session'], ['Always allow', 'Deny']]);
    const forged = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'not-the-secret-token-00' }, body: JSON.stringify({ update_id: 5, callback_query: { id: 'q-forged', from: { ...owner, is_bot: false }, chat_instance: 'c', message: { message_id: q.message_id, date: 1, chat: dm, from: fake.bot, text: 'x' }, data: fake.buttons({ chatId: dm.id, messageId: q.message_id })[0]?.[0]?.data } }) });
    assert.equal(forged.status, 401);
    assert.equal(h.fake.requests.length, 1, 'a forged press ended the wait');
    assert.equal(labels(fake, q).flat().length, 4);
    assert.equal((await fake.pressViaWebhook({ url, chatId: dm.id, messageId: q.message_id, from: owner, label: 'Deny' })).status, 200);
    await waitShown(fake, 'left it');
    await h.runner.waitIdle();
    assert.ok(existsSync(build));
    assert.match(lastToolResult(h), deniedResult);
    assert.match(now(fake, q).shown, /\n\n⛔ Denied by Owner$/);
    assert.deepEqual(labels(fake, q), []);

    scriptCommand(h, 'rm -rf build', 'cleaned');
    await say('now do clean it');
    const second = await waitQuestion(fake, 2);
    assert.equal((await fake.pressViaWebhook({ url, chatId: dm.id, messageId: second.message_id, from: owner, label: 'Allow once' })).status, 200);
    await waitShown(fake, 'cleaned');
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false);
    await fake.waitFor({ predicate: (f) => f.presses.length === 2 && f.presses.every((p) => p.answer !== undefined) });
    assert.deepEqual(fake.presses.map((p) => p.answer?.text), ['⛔ Denied by Owner', '✅ Allowed once by Owner']);
    assert.equal(fake.callsTo('getUpdates').length, 0, 'it polled');
  } finally {
    await close();
  }
});
