import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { cli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { contentImages, contentText, lastUserContent } from '../helpers/request-roles.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };
const group = { id: -100555, type: 'supergroup' as const, title: 'Team', is_forum: true };

/** A 1×1 PNG: real image bytes, as sendPhoto requires. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function start(params: { overrides?: Record<string, unknown>; config?: Record<string, unknown>; withHttp?: boolean } = {}): Promise<{ h: Harness; fake: FakeTelegram; adapter: () => TelegramAdapter }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  let adapter: TelegramAdapter | undefined;
  const h = await startHarness({
    config: { stream: { edit_interval: '1s' }, ...params.config },
    withHttp: params.withHttp === true,
    adapters: ({ profile, clock, logger }) => {
      adapter = telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'], ...params.overrides } });
      return [{ adapter, allow: ['1001'], unauthorized: (params.overrides?.['unauthorized'] as 'pair' | 'ignore' | undefined) ?? 'pair', mergeWindowMs: 300 }];
    },
  });
  return {
    h,
    fake,
    adapter: () => {
      if (!adapter) throw new Error('no adapter');
      return adapter;
    },
  };
}

test('telegram DM: streamed reply, at most one edit per second, exact final text rendered from Markdown', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    h.fake.enqueue({ chunks: ['**Answer:** ', ...words.map((w) => `${w} `)], chunkDelayMs: 70 });
    fake.pushMessage({ chat: dm, from: owner, text: 'count' });
    const final = `Answer: ${words.join(' ')}`;
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id)[0]?.shown === final, timeoutMs: 15_000 });
    await h.runner.waitIdle();
    const messages = fake.chatMessages(dm.id);
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.parse_mode, 'HTML');
    assert.ok(messages[0]?.entities.some((e) => e.type === 'bold'), 'Markdown bold became a Telegram bold entity');
    const ops = fake.calls.filter((c) => (c.method === 'sendMessage' || c.method === 'editMessageText') && String(c.params['chat_id']) === String(dm.id));
    assert.ok(ops.length >= 3, `expected streaming edits, got ${ops.length} calls`);
    for (let i = 1; i < ops.length; i++) {
      const gap = (ops[i]?.at ?? 0) - (ops[i - 1]?.at ?? 0);
      assert.ok(gap >= 990, `two calls ${gap} ms apart`);
    }
    assert.ok(fake.calls.some((c) => c.method === 'sendChatAction'), 'typing was shown');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram group: ignored without a mention, answered (as a reply) with one; topics keep their thread', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.setResponder(() => ({ text: 'here' }));
    fake.pushMessage({ chat: group, from: owner, text: 'talking among ourselves' });
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(fake.chatMessages(group.id).length, 0);
    assert.equal(h.fake.requests.length, 0);
    const asked = fake.pushMessage({ chat: group, from: owner, text: '@hermes_test_bot what now?', message_thread_id: 77 });
    await fake.waitFor({ predicate: (f) => f.chatMessages(group.id).length === 1 });
    await h.runner.waitIdle();
    const reply = fake.chatMessages(group.id)[0];
    assert.equal(reply?.reply_to_message_id, asked.message?.message_id);
    assert.equal(reply?.message_thread_id, 77);
    const userText = (h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'];
    assert.equal(userText, 'what now?', 'the mention is stripped');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a photo reaches the agent as a file; MEDIA: files go out by the right method', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    const files = { png: 'chart.png', ogg: 'note.ogg', mp3: 'song.mp3', pdf: 'doc.pdf' };
    for (const name of Object.values(files)) writeFileSync(path.join(h.profile.workspaceDir, name), name.endsWith('.png') ? png : Buffer.from(`bytes of ${name}`));
    h.fake.enqueue({ text: `Files:\n${Object.values(files).map((n) => `MEDIA:${path.join(h.profile.workspaceDir, n)}`).join('\n')}` });
    const photo = fake.addFile({ bytes: png, mimeType: 'image/png', width: 1, height: 1 });
    fake.pushMessage({ chat: dm, from: owner, caption: 'what is this?', photo });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).length === 5, timeoutMs: 10_000 });
    await h.runner.waitIdle();
    const content = contentText(lastUserContent(h.fake.requests[0]));
    assert.match(content, /what is this\?\n\[Attached file: .*\.(jpg|png) \(image/);
    assert.equal(contentImages(lastUserContent(h.fake.requests[0])).length, 1, 'and the model sees the photo');
    const methods = fake.calls.filter((c) => c.method.startsWith('send') && c.method !== 'sendChatAction' && c.method !== 'sendMessage').map((c) => c.method);
    assert.deepEqual(methods.sort(), ['sendAudio', 'sendDocument', 'sendPhoto', 'sendVoice']);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a 429 storm while streaming gives no duplicate and no truncated final message, and waits retry_after', { timeout: 30_000 }, async () => {
  const { h, fake } = await start({ config: { stream: { edit_interval: '1s', typing_interval: '300ms' } } });
  try {
    const words = Array.from({ length: 40 }, (_, i) => `t${i}`);
    h.fake.enqueue({ chunks: words.map((w) => `${w} `), chunkDelayMs: 60 });
    fake.pushMessage({ chat: dm, from: owner, text: 'go' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).length === 1 });
    fake.failNext({ method: 'editMessageText', status: 429, retryAfter: 1, count: 3 });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id)[0]?.shown === words.join(' '), timeoutMs: 20_000 });
    await h.runner.waitIdle();
    assert.equal(fake.chatMessages(dm.id).length, 1, 'no duplicate message');
    const edits = fake.calls.filter((c) => c.method === 'editMessageText');
    const refused = edits.filter((c) => c.status === 429);
    assert.equal(refused.length, 3);
    for (const r of refused) {
      const next = edits.find((c) => c.at > r.at);
      assert.ok(next && next.at - r.at >= 1000, `called again ${next ? next.at - r.at : '?'} ms after retry_after 1 s`);
      // Typing runs beside the pacer: a typing call sent before the 429 answer reached the gateway may arrive just
      // after the 429 (it was in flight). Anything later, or any send/edit, would be a call made during retry_after.
      const inFlightMs = 200;
      const early = fake.calls.filter(
        (c) => c.at > r.at && c.at - r.at < 1000 && String(c.params['chat_id']) === String(dm.id) && !(c.method === 'sendChatAction' && c.at - r.at < inFlightMs),
      );
      assert.deepEqual(early.map((c) => c.method), [], 'no call of any kind (not even typing) before retry_after passed');
    }
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: an unknown sender gets a pairing code and, once approved, an answer', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    const stranger = { id: 3003, first_name: 'New' };
    const junk = fake.addFile({ bytes: Buffer.alloc(4096, 7), fileName: 'junk.bin' });
    fake.pushMessage({ chat: { id: 3003, type: 'private' }, from: stranger, caption: 'hello?', document: junk });
    await fake.waitFor({ predicate: (f) => f.chatMessages(3003).length === 1 });
    const code = /\b([A-HJ-NP-Z2-9]{8})\b/.exec(fake.chatMessages(3003)[0]?.shown ?? '')?.[1];
    assert.ok(code);
    assert.equal(h.fake.requests.length, 0);
    assert.equal(fake.calls.filter((c) => c.method === 'getFile').length, 0, "a stranger's file is never downloaded");
    const res = await cli({ argv: ['-p', 'test', 'pairing', 'approve', 'telegram', code], env: { HERMES_HOME: h.profile.hermesHome, HOME: h.profile.hermesHome } });
    assert.equal(res.code, 0, res.stderr);
    h.fake.enqueue({ text: 'Welcome.' });
    fake.pushMessage({ chat: { id: 3003, type: 'private' }, from: stranger, text: 'now?' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(3003).some((m) => m.shown === 'Welcome.') });
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram webhook mode: wrong secret → 401, right secret → answered', { timeout: 20_000 }, async () => {
  const secret = 'a-very-secret-token-123';
  const { h, fake } = await start({ withHttp: true, overrides: { mode: 'webhook', webhook: { url: 'https://bot.example.com/telegram/webhook', secret_token: secret } } });
  try {
    await fake.waitFor({ predicate: (f) => f.webhook?.url === 'https://bot.example.com/telegram/webhook' });
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/telegram/webhook`;
    fake.addChat({ ...dm, first_name: 'Owner' });
    const update = { update_id: 9001, message: { message_id: 5, date: 1, chat: dm, from: { ...owner, is_bot: false }, text: 'via webhook' } };
    const post = (headers: Record<string, string>, body: unknown): Promise<Response> =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    assert.equal((await post({ 'x-telegram-bot-api-secret-token': 'wrong-secret-xxxxxxxx' }, update)).status, 401);
    assert.equal((await post({}, update)).status, 401);
    assert.equal((await post({ 'x-telegram-bot-api-secret-token': secret }, { nope: true })).status, 400);
    h.fake.enqueue({ text: 'got your webhook' });
    assert.equal((await post({ 'x-telegram-bot-api-secret-token': secret }, update)).status, 200);
    assert.equal((await post({ 'x-telegram-bot-api-secret-token': secret }, update)).status, 200, 'a retry is accepted');
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'got your webhook') });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1, 'the retried update was processed once');
    assert.equal(fake.calls.filter((c) => c.method === 'getUpdates').length, 0, 'no polling in webhook mode');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: 409 Conflict is retried with backoff and shown in health; the command menu is set once across restarts', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    await fake.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'getUpdates') });
    fake.failNext({ method: 'getUpdates', status: 409, count: 2 });
    // Wake the open long poll so the next one meets the 409s.
    h.fake.setResponder(() => ({ text: 'pong' }));
    fake.pushMessage({ chat: dm, from: owner, text: 'ping' });
    await fake.waitFor({ predicate: (f) => f.calls.filter((c) => c.status === 409).length >= 1, timeoutMs: 10_000 });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'pong'), timeoutMs: 15_000 });
    await fake.waitFor({ predicate: (f) => f.calls.filter((c) => c.status === 409).length === 2, timeoutMs: 10_000 });
    const lastError = h.runner.health().adapters.find((a) => a.name === 'telegram')?.lastError ?? '';
    assert.match(lastError, /409 Conflict/);
    const deadline = Date.now() + 10_000;
    while (h.runner.health().adapters.find((a) => a.name === 'telegram')?.state !== 'connected') {
      assert.ok(Date.now() < deadline, 'never reported connected again after the conflict');
      await new Promise((r) => setTimeout(r, 50));
    }
    await h.restart();
    await fake.waitFor({ predicate: (f) => f.calls.filter((c) => c.method === 'getMe').length >= 2 });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fake.calls.filter((c) => c.method === 'setMyCommands').length, 1, 'setMyCommands only when the menu changed');
    assert.deepEqual(fake.myCommands().map((c) => c.command), ['new', 'stop', 'status', 'memory', 'compress', 'skills', 'cron', 'sethome', 'approve', 'deny', 'model', 'usage', 'title', 'sessions', 'resume', 'verbose', 'voice', 'rollback', 'retry', 'undo', 'queue', 'steer', 'context', 'tools', 'reload_mcp', 'help']);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: an album (two photos, one caption) becomes one turn with both files', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.setResponder(() => ({ text: 'two pictures' }));
    const a = fake.addFile({ bytes: png, mimeType: 'image/png', width: 1, height: 1 });
    const b = fake.addFile({ bytes: Buffer.concat([png, Buffer.from([0])]), mimeType: 'image/png', width: 1, height: 1 });
    fake.pushMessage({ chat: dm, from: owner, caption: 'compare these', photo: a, media_group_id: 'album-1' });
    fake.pushMessage({ chat: dm, from: owner, photo: b, media_group_id: 'album-1' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'two pictures'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1, 'one turn for the whole album');
    const content = contentText(lastUserContent(h.fake.requests[0]));
    assert.match(content, /^compare these/);
    assert.equal((content.match(/\[Attached file:/g) ?? []).length, 2);
    assert.equal(contentImages(lastUserContent(h.fake.requests[0])).length, 2, 'and the model sees both photos');
    const store = h.readStore();
    try {
      assert.equal(store.pendingInbound().length, 0, 'both parts are done');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: edited messages are ignored by default, and too-large files are noted instead of downloaded', { timeout: 20_000 }, async () => {
  const { h, fake } = await start({ overrides: { max_file_size: '10' } });
  try {
    h.fake.setResponder(() => ({ text: 'ok' }));
    const big = fake.addFile({ bytes: Buffer.alloc(64, 1), fileName: 'big.bin' });
    const first = fake.pushMessage({ chat: dm, from: owner, caption: 'here', document: big });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).length === 1 });
    fake.pushMessage({ chat: dm, from: owner, text: 'here (edited)', edit: true, message_id: first.message?.message_id });
    await new Promise((r) => setTimeout(r, 500));
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1, 'the edit was not a new turn');
    const content = String((h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content']);
    assert.match(content, /big\.bin was not downloaded: .* over the .* limit/);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: markup Telegram rejects is re-sent as plain text; typing runs during the turn and stops after', { timeout: 20_000 }, async () => {
  const { h, fake } = await start({ config: { stream: { edit_interval: '1s', typing_interval: '300ms' } } });
  try {
    fake.failNext({ method: 'sendMessage', status: 400, description: "Bad Request: can't parse entities: unsupported start tag \"x\" at byte offset 0" });
    h.fake.enqueue({ chunks: ['**Plain** ', 'fallback ', 'works'], chunkDelayMs: 600 });
    fake.pushMessage({ chat: dm, from: owner, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id)[0]?.shown === 'Plain fallback works', timeoutMs: 10_000 });
    await h.runner.waitIdle();
    const first = fake.calls.filter((c) => c.method === 'sendMessage');
    assert.equal(first[0]?.status, 400);
    assert.equal(first[1]?.params['parse_mode'], undefined, 'the retry is plain text');
    assert.equal(fake.chatMessages(dm.id).length, 1, 'the refused send created nothing, the retry one message');
    const typing = fake.calls.filter((c) => c.method === 'sendChatAction');
    assert.ok(typing.length >= 2, `typing refreshed during the turn (${typing.length})`);
    const before = typing.length;
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(fake.calls.filter((c) => c.method === 'sendChatAction').length, before, 'typing stopped with the turn');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a second adapter polling the same token in one process is refused; not-modified edits are success', { timeout: 20_000 }, async () => {
  const { h, fake, adapter } = await start();
  try {
    await fake.waitFor({ predicate: (f) => f.pollers >= 1 || f.calls.some((c) => c.method === 'getUpdates') });
    const twin = telegramAdapter({ fake, cacheDir: h.profile.cacheDir, clock: h.clock, logger: h.logger });
    const controller = new AbortController();
    await assert.rejects(
      twin.start({ signal: controller.signal, emit: async () => undefined, report: () => undefined, storage: { get: () => undefined, set: () => undefined }, mayTalk: () => true, choose: async () => ({}) }),
      /already being polled/,
    );
    controller.abort();
    const polls = fake.calls.filter((c) => c.method === 'getUpdates').length;
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(fake.calls.filter((c) => c.method === 'getUpdates').length - polls <= 1, 'an idle bot long-polls; it does not spin');
    fake.addChat({ ...dm, first_name: 'Owner' });
    const sent = await adapter().send({ chat: { id: String(dm.id), kind: 'dm' }, text: 'same' });
    await adapter().edit({ chat: { id: String(dm.id), kind: 'dm' }, messageId: sent.messageId, text: 'same' });
    assert.equal(fake.calls.filter((c) => c.method === 'editMessageText').at(-1)?.status, 400, 'Telegram said not modified');
    assert.equal(adapter().minInterval({ chatId: String(group.id) }), 3000);
    assert.equal(adapter().minInterval({ chatId: String(dm.id) }), undefined);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a picture Telegram refuses as a photo is sent as a document instead', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    const broken = path.join(h.profile.workspaceDir, 'broken.png');
    writeFileSync(broken, 'not really a png');
    h.fake.enqueue({ text: `Here.\nMEDIA:${broken}` });
    fake.pushMessage({ chat: dm, from: owner, text: 'send it' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.kind === 'document'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(fake.calls.find((c) => c.method === 'sendPhoto')?.status, 400);
    assert.equal(fake.chatMessages(dm.id).find((m) => m.kind === 'document')?.file?.file_name, 'broken.png');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a chunk that rendering would push over 4096 characters is still delivered', { timeout: 20_000 }, async () => {
  const { h, fake, adapter } = await start();
  try {
    fake.addChat({ ...dm, first_name: 'Owner' });
    const markdown = Array.from({ length: 1000 }, () => '1. x').join('\n').slice(0, 4090);
    assert.ok(markdown.length <= 4096);
    await adapter().send({ chat: { id: String(dm.id), kind: 'dm' }, text: markdown });
    const shown = fake.chatMessages(dm.id).at(-1)?.shown ?? '';
    assert.ok(shown.length <= 4096 && shown.length > 4000);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a burst of short messages is answered once, as one turn', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.setResponder(() => ({ text: 'one answer' }));
    for (const text of ['hey', 'quick question', 'what time is it in Tokyo?']) fake.pushMessage({ chat: dm, from: owner, text });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'one answer'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(fake.chatMessages(dm.id).length, 1, 'one answer');
    // The lone "hey" went to the agent at once; the messages that followed it within the merge window interrupted
    // that turn and became one turn, whose request has "hey" (unanswered) before them.
    const users = (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'user').map((m) => String(m['content']));
    assert.equal(users.at(-1), 'quick question\n\nwhat time is it in Tokyo?', 'the followers are one turn');
    assert.equal(users.join('\n\n'), 'hey\n\nquick question\n\nwhat time is it in Tokyo?', 'the model sees all three');
  } finally {
    await h.stop();
    await fake.close();
  }
});
