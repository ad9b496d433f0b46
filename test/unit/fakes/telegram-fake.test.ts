import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api, Bot, GrammyError, HttpError, InputFile } from 'grammy';
import { FakeTelegram } from '../../fakes/telegram/index.js';
import { parseMultipart } from '../../fakes/telegram/multipart.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const TOKEN = '4242:TEST-token_abc';
const DM = { id: 1001, type: 'private' as const };
const ALICE = { id: 1001, first_name: 'Alice', username: 'alice' };
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const NOT_MODIFIED =
  'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

/** Runs `fn` and returns the GrammyError it must throw. */
async function grammyError(fn: () => Promise<unknown>): Promise<GrammyError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof GrammyError) return error;
    throw error;
  }
  assert.fail('expected a GrammyError');
}

let fake: FakeTelegram;
let api: Api;
let tmp: string;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  fake = new FakeTelegram({ token: TOKEN, botUsername: 'hermes_test_bot', botId: 4242 });
  await fake.start();
  api = new Api(TOKEN, { apiRoot: fake.apiRoot });
  fake.pushMessage({ chat: DM, from: ALICE, text: 'hello' });
});

after(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('identity and routing', () => {
  test('getMe answers the bot; another token gets 401 Unauthorized', async () => {
    const me = await api.getMe();
    assert.equal(me.id, 4242);
    assert.equal(me.username, 'hermes_test_bot');
    const error = await grammyError(() => new Api('1:wrong', { apiRoot: fake.apiRoot }).getMe());
    assert.equal(error.error_code, 401);
    assert.equal(error.description, 'Unauthorized');
  });

  test('unknown chats and unknown methods fail like Telegram', async () => {
    assert.equal((await grammyError(() => api.sendMessage(999, 'x'))).description, 'Bad Request: chat not found');
    const error = await grammyError(() => api.raw.getChatMenuButton({}));
    assert.equal(error.error_code, 404);
  });
});

describe('sendMessage and editMessageText', () => {
  test('records text, parse_mode, reply and thread, and returns the parsed text', async () => {
    const sent = await api.sendMessage(DM.id, '<b>Hi</b> &amp; bye', {
      parse_mode: 'HTML',
      reply_parameters: { message_id: 1 },
      message_thread_id: 7,
    });
    assert.equal(sent.text, 'Hi & bye');
    assert.deepEqual(sent.entities, [{ type: 'bold', offset: 0, length: 2 }]);
    assert.equal(sent.reply_to_message?.text, 'hello');
    const record = fake.chatMessages(DM.id).find((m) => m.message_id === sent.message_id);
    assert.equal(record?.text, '<b>Hi</b> &amp; bye');
    assert.equal(record?.parse_mode, 'HTML');
    assert.equal(record?.reply_to_message_id, 1);
    assert.equal(record?.message_thread_id, 7);
    assert.equal(record?.kind, 'text');
  });

  test('bad HTML gets Telegram\'s exact "can\'t parse entities" errors with byte offsets', async () => {
    const cases: [string, string][] = [
      ['<b>bold', 'Can\'t find end tag corresponding to start tag "b"'],
      ['é<div>x</div>', 'Unsupported start tag "div" at byte offset 2'],
      ['a</b>', 'Unexpected end tag at byte offset 1'],
      ['<b>x</i>', 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'],
      ['<a href', 'Unclosed start tag "a" at byte offset 0'],
    ];
    for (const [html, error] of cases) {
      const got = await grammyError(() => api.sendMessage(DM.id, html, { parse_mode: 'HTML' }));
      assert.equal(got.description, `Bad Request: can't parse entities: ${error}`, html);
    }
  });

  test('length is counted in UTF-16 units after markup is parsed', async () => {
    await api.sendMessage(DM.id, `<b>${'a'.repeat(4096)}</b>`, { parse_mode: 'HTML' });
    await api.sendMessage(DM.id, '😀'.repeat(2048));
    const tooLong = await grammyError(() => api.sendMessage(DM.id, '😀'.repeat(2048) + 'a'));
    assert.equal(tooLong.description, 'Bad Request: message is too long');
    assert.equal((await grammyError(() => api.sendMessage(DM.id, ' '))).description, 'Bad Request: message text is empty');
  });

  test('edits count and keep history; unchanged content and unknown messages are refused', async () => {
    const sent = await api.sendMessage(DM.id, 'draft');
    await api.editMessageText(DM.id, sent.message_id, 'draft more');
    const edited = await api.editMessageText(DM.id, sent.message_id, '<i>draft more</i>', { parse_mode: 'HTML' });
    assert.ok(edited !== true && edited.edit_date !== undefined);
    const same = await grammyError(() => api.editMessageText(DM.id, sent.message_id, '<em>draft more</em>', { parse_mode: 'HTML' }));
    assert.equal(same.description, NOT_MODIFIED);
    const record = fake.chatMessages(DM.id).find((m) => m.message_id === sent.message_id);
    assert.equal(record?.edits, 2);
    assert.deepEqual(record?.history, ['draft', 'draft more', '<i>draft more</i>']);
    const missing = await grammyError(() => api.editMessageText(DM.id, 99_999, 'x'));
    assert.equal(missing.description, 'Bad Request: message to edit not found');
    const users = await grammyError(() => api.editMessageText(DM.id, 1, 'x'));
    assert.equal(users.description, "Bad Request: message can't be edited");
    const noReply = await grammyError(() => api.sendMessage(DM.id, 'x', { reply_parameters: { message_id: 99_999 } }));
    assert.equal(noReply.description, 'Bad Request: message to be replied not found');
  });

  test('deleteMessage flags the message; deleting again fails', async () => {
    const sent = await api.sendMessage(DM.id, 'to delete');
    assert.equal(await api.deleteMessage(DM.id, sent.message_id), true);
    assert.equal(fake.chatMessages(DM.id).find((m) => m.message_id === sent.message_id)?.deleted, true);
    const again = await grammyError(() => api.deleteMessage(DM.id, sent.message_id));
    assert.equal(again.description, 'Bad Request: message to delete not found');
  });
});

describe('files', () => {
  test('sendPhoto uploads an InputFile as multipart and records name, size and bytes', async () => {
    const file = path.join(tmp, 'dot.png');
    fs.writeFileSync(file, PNG_1X1);
    const sent = await api.sendPhoto(DM.id, new InputFile(file), { caption: 'a <b>dot</b>', parse_mode: 'HTML' });
    assert.equal(sent.caption, 'a dot');
    assert.deepEqual(sent.photo.map((p) => [p.width, p.height, p.file_size]), [[1, 1, PNG_1X1.length]]);
    const record = fake.chatMessages(DM.id).at(-1);
    assert.equal(record?.kind, 'photo');
    assert.equal(record?.file?.file_name, 'dot.png');
    assert.deepEqual(record?.file?.bytes, PNG_1X1);
    const call = fake.callsTo('sendPhoto').at(-1);
    assert.deepEqual(call?.uploads.map((u) => u.fileName), ['dot.png']);
    const bogus = await grammyError(() => api.sendPhoto(DM.id, new InputFile(Buffer.from('not an image'), 'x.png')));
    assert.equal(bogus.description, 'Bad Request: IMAGE_PROCESS_FAILED');
  });

  test('documents and voice notes upload; a file_id re-sends; unknown ids are refused', async () => {
    const doc = await api.sendDocument(DM.id, new InputFile(Buffer.from('col\n1\n'), 'report.csv'));
    assert.equal(doc.document.file_name, 'report.csv');
    assert.equal(doc.document.mime_type, 'text/csv');
    const again = await api.sendDocument(DM.id, doc.document.file_id);
    assert.equal(again.document.file_unique_id, doc.document.file_unique_id);
    const voice = await api.sendVoice(DM.id, new InputFile(Buffer.from('OggS-fake'), 'note.ogg'), { duration: 3 });
    assert.equal(voice.voice.duration, 3);
    const unknown = await grammyError(() => api.sendDocument(DM.id, 'no-such-file-id'));
    assert.equal(unknown.description, 'Bad Request: wrong file identifier/HTTP URL specified');
  });

  test('getFile gives a file_path that downloads with fetch; unknown paths are 404', async () => {
    const handle = fake.addFile({ bytes: 'quarterly numbers', fileName: 'q3.txt' });
    const update = fake.pushMessage({ chat: DM, from: ALICE, document: handle, caption: 'see /summary' });
    assert.equal(update.message?.document?.file_name, 'q3.txt');
    assert.deepEqual(update.message?.caption_entities, [{ type: 'bot_command', offset: 4, length: 8 }]);
    const file = await api.getFile(handle.file_id);
    const response = await fetch(`${fake.apiRoot}/file/bot${TOKEN}/${file.file_path ?? ''}`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'quarterly numbers');
    assert.equal((await fetch(`${fake.apiRoot}/file/bot${TOKEN}/documents/nope.txt`)).status, 404);
    assert.equal((await grammyError(() => api.getFile('nope'))).description, 'Bad Request: invalid file_id');
  });
});

describe('pushMessage', () => {
  test('builds photos, captions with mentions, forum threads, albums and replies to the bot', async () => {
    const group = { id: -100_7, type: 'supergroup' as const, title: 'Ops', is_forum: true };
    const photo = fake.addFile({ bytes: PNG_1X1 });
    const first = fake.pushMessage({
      chat: group, from: ALICE, photo, caption: 'hi @hermes_test_bot', message_thread_id: 3, media_group_id: 'g1',
    }).message;
    assert.deepEqual(first?.photo?.map((p) => [p.file_id, p.width]), [[photo.file_id, 1]]);
    assert.deepEqual(first?.caption_entities, [{ type: 'mention', offset: 3, length: 16 }]);
    assert.deepEqual([first?.message_thread_id, first?.is_topic_message, first?.media_group_id], [3, true, 'g1']);
    const answer = await api.sendMessage(group.id, 'seen', { message_thread_id: 3 });
    assert.equal(answer.message_thread_id, 3);
    const reply = fake.pushMessage({ chat: group, from: ALICE, text: 'thanks', reply_to_message: answer.message_id });
    assert.equal(reply.message?.reply_to_message?.from?.id, 4242);
    assert.throws(() => fake.pushMessage({ chat: group, from: ALICE }), /give text or a file/);
  });
});

describe('getUpdates', () => {
  test('a long poll answers as soon as an update arrives; offset confirms it', async () => {
    const drained = await api.getUpdates({ timeout: 0 });
    await api.getUpdates({ offset: (drained.at(-1)?.update_id ?? 0) + 1, timeout: 0 });
    const started = Date.now();
    const poll = api.getUpdates({ timeout: 10 });
    await fake.waitFor({ predicate: (f) => f.pollers === 1 });
    const pushed = fake.pushMessage({ chat: DM, from: ALICE, text: '/start now' });
    const updates = await poll;
    assert.ok(Date.now() - started < 3000);
    assert.deepEqual(updates.map((u) => u.update_id), [pushed.update_id]);
    assert.deepEqual(updates[0]?.message?.entities, [{ type: 'bot_command', offset: 0, length: 6 }]);
    assert.equal((await api.getUpdates({ timeout: 0 })).length, 1);
    assert.deepEqual(await api.getUpdates({ offset: pushed.update_id + 1, timeout: 0 }), []);
    assert.equal(fake.pollers, 0);
  });

  test('a second concurrent poll ends the first with 409; edits arrive as edited_message', async () => {
    const first = grammyError(() => api.getUpdates({ timeout: 10 }));
    await fake.waitFor({ predicate: (f) => f.pollers === 1 });
    const second = api.getUpdates({ timeout: 10 });
    const conflict = await first;
    assert.equal(conflict.error_code, 409);
    assert.match(conflict.description, /^Conflict: terminated by other getUpdates request/);
    assert.equal(fake.pollers, 1);
    const pushed = fake.pushMessage({ chat: DM, from: ALICE, text: '/start later', edit: true });
    const [update] = await second;
    assert.equal(update?.edited_message?.text, '/start later');
    await api.getUpdates({ offset: pushed.update_id + 1, timeout: 0 });
  });

  test('close() ends open long polls', async () => {
    const other = new FakeTelegram({ token: TOKEN });
    await other.start();
    const poll = new Api(TOKEN, { apiRoot: other.apiRoot }).getUpdates({ timeout: 30 });
    await other.waitFor({ predicate: (f) => f.pollers === 1 });
    await other.close();
    await assert.rejects(poll, HttpError);
  });
});

describe('failure injection and timing', () => {
  test('429 carries retry_after to GrammyError, for `count` calls; calls record status and time', async () => {
    fake.failNext({ method: 'sendMessage', status: 429, retryAfter: 3, count: 2 });
    for (let i = 0; i < 2; i += 1) {
      const error = await grammyError(() => api.sendMessage(DM.id, 'flood'));
      assert.equal(error.error_code, 429);
      assert.equal(error.description, 'Too Many Requests: retry after 3');
      assert.equal(error.parameters.retry_after, 3);
    }
    await api.sendMessage(DM.id, 'flood');
    const statuses = fake.callsTo('sendMessage').slice(-3).map((c) => c.status);
    assert.deepEqual(statuses, [429, 429, 200]);
    assert.ok(fake.callsTo('sendMessage').every((c) => typeof c.at === 'number' && c.at <= Date.now()));
  });

  test('409 on getUpdates, and a dropped answer after the message was sent', async () => {
    fake.failNext({ method: 'getUpdates', status: 409 });
    const error = await grammyError(() => api.getUpdates({ timeout: 0 }));
    assert.equal(error.description, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    const before = fake.chatMessages(DM.id).length;
    fake.failNext({ method: 'sendMessage', drop: 'after' });
    await assert.rejects(api.sendMessage(DM.id, 'lost answer'), HttpError);
    assert.equal(fake.chatMessages(DM.id).length, before + 1);
  });

  test('the injected clock stamps calls and times long polls', async () => {
    const clock = new FakeClock();
    const timed = new FakeTelegram({ token: TOKEN, clock });
    await timed.start();
    const timedApi = new Api(TOKEN, { apiRoot: timed.apiRoot });
    const poll = timedApi.getUpdates({ timeout: 20 });
    await timed.waitFor({ predicate: (f) => f.pollers === 1 });
    await clock.advance(20_000);
    assert.deepEqual(await poll, []);
    const call = timed.callsTo('getUpdates')[0];
    assert.equal(call?.at, 1_700_000_000_000);
    assert.equal(call?.answeredAt, 1_700_000_020_000);
    await timed.close();
  });
});

describe('bot settings', () => {
  test('commands, chat actions and webhooks', async () => {
    await api.setMyCommands([{ command: 'new', description: 'Start over' }]);
    assert.deepEqual(await api.getMyCommands(), [{ command: 'new', description: 'Start over' }]);
    assert.deepEqual(fake.myCommands(), [{ command: 'new', description: 'Start over' }]);
    const bad = await grammyError(() => api.setMyCommands([{ command: 'New', description: 'x' }]));
    assert.equal(bad.description, 'Bad Request: BOT_COMMAND_INVALID');
    await api.deleteMyCommands();
    assert.deepEqual(await api.getMyCommands(), []);
    assert.equal(await api.sendChatAction(DM.id, 'typing'), true);
    const action = await grammyError(() => api.raw.sendChatAction({ chat_id: DM.id, action: 'dancing' as 'typing' }));
    assert.equal(action.description, 'Bad Request: wrong parameter action in request');
    await api.setWebhook('https://bot.example.com/tg', { secret_token: 'shh' });
    assert.deepEqual(fake.webhook, { url: 'https://bot.example.com/tg', secretToken: 'shh' });
    assert.equal((await api.getWebhookInfo()).url, 'https://bot.example.com/tg');
    assert.equal((await grammyError(() => api.getUpdates())).error_code, 409);
    await api.deleteWebhook();
    assert.equal(fake.webhook, undefined);
  });

  test('a real grammy Bot polls, handles a command and replies, and stops cleanly', async () => {
    const bot = new Bot(TOKEN, { client: { apiRoot: fake.apiRoot } });
    bot.command('ping', (ctx) => ctx.reply(`pong ${ctx.match}`));
    const running = bot.start({ drop_pending_updates: true });
    await fake.waitFor({ predicate: (f) => f.pollers === 1 });
    fake.pushMessage({ chat: { id: -100_5, type: 'supergroup', title: 'Team' }, from: ALICE, text: '/ping@hermes_test_bot 42' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(-100_5).length === 1 });
    assert.equal(fake.chatMessages(-100_5)[0]?.text, 'pong 42');
    await bot.stop();
    await running;
    assert.equal(fake.pollers, 0);
  });
});

describe('multipart parser', () => {
  test('reads grammy\'s compact headers and quoted RFC 7578 headers', () => {
    const body = Buffer.from(
      '--XYZ\r\ncontent-disposition:form-data;name="chat_id"\r\n\r\n5\r\n' +
        '--XYZ\r\nContent-Disposition: form-data; name="abc"; filename="a b.txt"\r\nContent-Type: text/plain\r\n\r\nline1\r\nline2\r\n' +
        '--XYZ\r\ncontent-disposition:form-data;name="def";filename=x.jpg\r\n\r\n\r\n--XYZ--\r\n',
    );
    const parts = parseMultipart({ body, boundary: 'XYZ' });
    assert.deepEqual(parts.map((p) => [p.name, p.fileName, p.data.toString()]), [
      ['chat_id', undefined, '5'],
      ['abc', 'a b.txt', 'line1\r\nline2'],
      ['def', 'x.jpg', ''],
    ]);
    assert.throws(() => parseMultipart({ body: Buffer.from('--XYZ\r\nno-colon\r\n\r\nx\r\n--XYZ--'), boundary: 'XYZ' }), /header/);
  });
});
