import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { App, LogLevel, SocketModeReceiver, isValidSlackRequest } from '@slack/bolt';
import { ErrorCode, WebClient, WebClientEvent, type WebAPIRateLimitedError } from '@slack/web-api';
import { WebSocket } from 'ws';
import { FakeSlack, signedEventRequest } from '../../fakes/slack/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const BOT_TOKEN = 'xoxb-fake-bot';
const APP_TOKEN = 'xapp-1-fake-app';
const SECRET = 'fake-signing-secret';
const DM = 'D0DM';

let fake: FakeSlack;
let client: WebClient;

before(async () => {
  fake = new FakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN, signingSecret: SECRET, clock: new FakeClock() });
  await fake.start();
  client = new WebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
});

after(async () => {
  await fake.close();
});

/** Runs `fn` and returns the error it must throw. */
async function rejection(fn: () => Promise<unknown>): Promise<Error & { code?: string; data?: { error?: string } }> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  assert.fail('expected a rejection');
}

describe('Web API through the real WebClient', () => {
  test('auth.test answers the bot identity; a wrong token gets invalid_auth, the app token not_allowed_token_type', async () => {
    const me = await client.auth.test();
    assert.equal(me.user_id, 'U0BOT');
    assert.equal(me.team_id, 'T0TEAM');
    const wrong = new WebClient('xoxb-wrong', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    const error = await rejection(() => wrong.auth.test());
    assert.equal(error.code, ErrorCode.PlatformError);
    assert.equal(error.data?.error, 'invalid_auth');
    const appClient = new WebClient(APP_TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    assert.equal((await rejection(() => appClient.auth.test())).data?.error, 'not_allowed_token_type');
  });

  test('chat.postMessage gives unique increasing ts per channel; chat.update edits; unknown ts → message_not_found', async () => {
    const first = await client.chat.postMessage({ channel: DM, text: 'hello' });
    const second = await client.chat.postMessage({ channel: DM, text: 'in thread', thread_ts: first.ts ?? '' });
    assert.ok(first.ts && second.ts && first.ts !== second.ts);
    assert.ok(Number(second.ts) > Number(first.ts));
    assert.match(first.ts, /^\d{10}\.\d{6}$/);
    const updated = await client.chat.update({ channel: DM, ts: first.ts, text: 'hello, edited' });
    assert.equal(updated.ts, first.ts);
    const [one, two] = fake.messages(DM);
    assert.deepEqual([one?.text, one?.edits, one?.history], ['hello, edited', 1, ['hello', 'hello, edited']]);
    assert.equal(two?.thread_ts, first.ts);
    const missing = await rejection(() => client.chat.update({ channel: DM, ts: '1.000001', text: 'x' }));
    assert.equal(missing.data?.error, 'message_not_found');
    assert.equal((await rejection(() => client.chat.postMessage({ channel: 'nope', text: 'x' }))).data?.error, 'channel_not_found');
    assert.equal((await rejection(() => client.chat.postMessage({ channel: DM, text: '' }))).data?.error, 'no_text');
    const call = fake.callsTo('chat.postMessage')[0];
    assert.equal(call?.params['text'], 'hello');
    assert.equal(call?.params['token'], undefined);
  });

  test('chat.delete, reactions and assistant thread status are recorded', async () => {
    const posted = await client.chat.postMessage({ channel: 'C0GEN', text: 'bye' });
    const ts = posted.ts ?? '';
    await client.reactions.add({ channel: 'C0GEN', timestamp: ts, name: 'eyes' });
    assert.equal((await rejection(() => client.reactions.add({ channel: 'C0GEN', timestamp: ts, name: 'eyes' }))).data?.error, 'already_reacted');
    assert.deepEqual(fake.reactions({ channel: 'C0GEN', ts }), ['eyes']);
    await client.reactions.remove({ channel: 'C0GEN', timestamp: ts, name: 'eyes' });
    assert.deepEqual(fake.reactions({ channel: 'C0GEN', ts }), []);
    await client.assistant.threads.setStatus({ channel_id: 'C0GEN', thread_ts: ts, status: 'is thinking...' });
    await client.assistant.threads.setStatus({ channel_id: 'C0GEN', thread_ts: ts, status: '' });
    assert.deepEqual(fake.threadStatuses({ channel: 'C0GEN', threadTs: ts }), ['is thinking...', '']);
    await client.chat.delete({ channel: 'C0GEN', ts });
    assert.equal(fake.messages('C0GEN')[0]?.deleted, true);
    assert.equal((await rejection(() => client.chat.delete({ channel: 'C0GEN', ts }))).data?.error, 'message_not_found');
  });

  test('conversations.info and users.info describe channels and users', async () => {
    const im = await client.conversations.info({ channel: DM });
    assert.equal(im.channel?.is_im, true);
    const group = await client.conversations.info({ channel: 'G0PRIV' });
    assert.equal(group.channel?.is_private, true);
    const user = await client.users.info({ user: 'U0ALICE' });
    assert.equal(user.user?.id, 'U0ALICE');
    assert.equal(user.user?.is_bot, false);
    assert.equal((await rejection(() => client.users.info({ user: 'bogus' }))).data?.error, 'user_not_found');
  });

  test('a 429 carries Retry-After, which the SDK surfaces as a rate-limit error with retryAfter', async () => {
    const limited = new WebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl, rejectRateLimitedCalls: true, logLevel: LogLevel.ERROR });
    let seen = 0;
    limited.on(WebClientEvent.RATE_LIMITED, (seconds: number) => (seen = seconds));
    fake.failNext({ method: 'chat.postMessage', status: 429, retryAfter: 7, count: 2 });
    for (let i = 0; i < 2; i++) {
      const error = await rejection(() => limited.chat.postMessage({ channel: DM, text: 'flood' }));
      assert.equal(error.code, ErrorCode.RateLimitedError);
      assert.equal((error as unknown as WebAPIRateLimitedError).retryAfter, 7);
    }
    assert.equal(seen, 7);
    const ok = await limited.chat.postMessage({ channel: DM, text: 'after the wait' });
    assert.equal(ok.ok, true);
    assert.deepEqual(fake.callsTo('chat.postMessage').slice(-3).map((c) => c.status), [429, 429, 200]);
    assert.equal(fake.messages(DM).filter((m) => m.text === 'flood').length, 0);
  });

  test('files.uploadV2 goes through getUploadURLExternal, the upload URL and completeUploadExternal into a thread', async () => {
    const parent = await client.chat.postMessage({ channel: DM, text: 'report coming' });
    const bytes = Buffer.from('col1,col2\n1,2\n');
    const result = await client.files.uploadV2({
      channel_id: DM, thread_ts: parent.ts ?? '', file: bytes, filename: 'report.csv', title: 'Report', initial_comment: 'here',
    });
    assert.equal(result.ok, true);
    assert.deepEqual(fake.calls.filter((c) => c.method.startsWith('files.')).map((c) => c.method).slice(-2),
      ['files.getUploadURLExternal', 'files.completeUploadExternal']);
    const shared = fake.messages(DM).at(-1);
    assert.equal(shared?.thread_ts, parent.ts);
    assert.equal(shared?.text, 'here');
    const file = shared?.files?.[0];
    assert.equal(file?.name, 'report.csv');
    assert.equal(file?.title, 'Report');
    assert.equal(file?.mimetype, 'text/csv');
    assert.deepEqual(fake.fileBytes(file?.id ?? ''), bytes);
    const incomplete = await client.files.getUploadURLExternal({ filename: 'x.txt', length: 3 });
    const error = await rejection(() => client.files.completeUploadExternal({ files: [{ id: incomplete.file_id ?? '' }] }));
    assert.equal(error.data?.error, 'file_upload_incomplete');
  });

  test('user-shared files download with the bot token and are refused without it', async () => {
    const file = fake.addFile({ bytes: 'secret notes', name: 'notes.txt' });
    assert.equal(file.mimetype, 'text/plain');
    const ok = await fetch(file.url_private_download, { headers: { Authorization: `Bearer ${BOT_TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), 'secret notes');
    assert.equal((await fetch(file.url_private_download)).status, 401);
    assert.equal((await fetch(file.url_private, { headers: { Authorization: 'Bearer xoxb-other' } })).status, 401);
  });
});

describe('test controls', () => {
  test('userMessage with files builds a file_share event in a thread; its files download with the bot token', async () => {
    const file = fake.addFile({ bytes: Buffer.from([1, 2, 3]), name: 'pic.png' });
    const event = fake.userMessage({ channel: 'C0FILES', channelType: 'channel', user: 'U0ALICE', text: 'look', threadTs: '1700000000.000001', files: [file] });
    assert.equal(event['type'], 'message');
    assert.equal(event['subtype'], 'file_share');
    assert.equal(event['thread_ts'], '1700000000.000001');
    assert.equal(event['channel_type'], 'channel');
    const shared = (event['files'] as Array<{ url_private_download: string; mimetype: string }>)[0];
    assert.equal(shared?.mimetype, 'image/png');
    const res = await fetch(shared?.url_private_download ?? '', { headers: { Authorization: `Bearer ${BOT_TOKEN}` } });
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), Buffer.from([1, 2, 3]));
    await client.reactions.add({ channel: 'C0FILES', timestamp: String(event['ts']), name: 'eyes' });
    assert.deepEqual(fake.reactions({ channel: 'C0FILES', ts: String(event['ts']) }), ['eyes']);
    const userEdit = await rejection(() => client.chat.update({ channel: 'C0FILES', ts: String(event['ts']), text: 'x' }));
    assert.equal(userEdit.data?.error, 'cant_update_message');
  });

  test('failNext with status 200 answers a Slack error; other statuses surface as HTTP errors; waitFor times out with context', async () => {
    fake.failNext({ method: 'chat.postMessage', status: 200, error: 'channel_not_found' });
    assert.equal((await rejection(() => client.chat.postMessage({ channel: DM, text: 'x' }))).data?.error, 'channel_not_found');
    fake.failNext({ method: 'chat.update', status: 503 });
    const http = await rejection(() => client.chat.update({ channel: DM, ts: '1.000001', text: 'x' }));
    assert.equal(http.code, ErrorCode.HTTPError);
    await assert.rejects(fake.waitFor({ predicate: () => false, timeoutMs: 30 }), /within 30 ms; last calls: .*chat.update→503/);
  });
});

describe('Socket Mode through a real Bolt App', () => {
  let app: App;
  const received: Array<{ text: string; retryNum: number | undefined }> = [];

  before(async () => {
    // App does not forward clientPingTimeout, which also sets the reconnect delay (default 5 s): pass a receiver.
    const receiver = new SocketModeReceiver({
      appToken: APP_TOKEN, clientPingTimeout: 100, logLevel: LogLevel.ERROR, installerOptions: { clientOptions: { slackApiUrl: fake.apiUrl } },
    });
    app = new App({ token: BOT_TOKEN, socketMode: true, receiver, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: fake.apiUrl } });
    app.message(async ({ message, context, say }) => {
      const text = 'text' in message && typeof message.text === 'string' ? message.text : '';
      received.push({ text, retryNum: context.retryNum });
      await say(`echo: ${text}`);
    });
    app.event('app_mention', async ({ event, say }) => {
      await say({ text: `mentioned: ${event.text}`, thread_ts: event.ts });
    });
    await app.start();
    await fake.waitFor({ predicate: (f) => f.connections === 1 });
  });

  after(async () => {
    await app.stop();
  });

  test('a delivered DM is acked, handled, and the reply lands in the channel', async () => {
    const event = fake.userMessage({ channel: 'D0ALICE', channelType: 'im', user: 'U0ALICE', text: 'hi bot' });
    assert.equal(event['type'], 'message');
    assert.equal(event['channel_type'], 'im');
    const delivery = await fake.deliverEvent({ event });
    assert.equal(delivery.ack.envelope_id, delivery.envelopeId);
    assert.ok(fake.acks.some((a) => a.envelope_id === delivery.envelopeId));
    await fake.waitFor({ predicate: (f) => f.messages('D0ALICE').length === 1 });
    assert.equal(fake.messages('D0ALICE')[0]?.text, 'echo: hi bot');
    assert.deepEqual(received.at(-1), { text: 'hi bot', retryNum: 0 });
  });

  test('a channel mention arrives as app_mention; a redelivery carries retry_attempt and the same event_id', async () => {
    const event = fake.userMessage({ channel: 'C0GEN', channelType: 'channel', user: 'U0ALICE', text: '<@U0BOT> status?' });
    assert.equal(event['type'], 'app_mention');
    const first = await fake.deliverEvent({ event });
    await fake.waitFor({ predicate: (f) => f.messages('C0GEN').some((m) => m.text === 'mentioned: <@U0BOT> status?') });
    const reply = fake.messages('C0GEN').find((m) => m.text.startsWith('mentioned'));
    assert.equal(reply?.thread_ts, event['ts']);
    const dm = fake.userMessage({ channel: 'D0ALICE', channelType: 'im', user: 'U0ALICE', text: 'again' });
    const original = await fake.deliverEvent({ event: dm });
    const retried = await fake.deliverEvent({ event: dm, eventId: original.eventId, retryAttempt: 1, retryReason: 'timeout' });
    assert.equal(retried.eventId, original.eventId);
    assert.notEqual(retried.envelopeId, first.envelopeId);
    await fake.waitFor({ predicate: () => received.filter((r) => r.text === 'again').length === 2 });
    assert.deepEqual(received.filter((r) => r.text === 'again').map((r) => r.retryNum), [0, 1]);
  });

  test('dropConnections and a disconnect message make the client reconnect through apps.connections.open', async () => {
    const opens = fake.callsTo('apps.connections.open').length;
    fake.dropConnections();
    assert.equal(fake.connections, 0);
    await fake.waitFor({ predicate: (f) => f.connections === 1 && f.callsTo('apps.connections.open').length === opens + 1 });
    fake.requestDisconnect({ reason: 'refresh_requested' });
    await fake.waitFor({ predicate: (f) => f.connections === 1 && f.callsTo('apps.connections.open').length === opens + 2 });
    const event = fake.userMessage({ channel: 'D0ALICE', channelType: 'im', user: 'U0ALICE', text: 'still there?' });
    await fake.deliverEvent({ event });
    await fake.waitFor({ predicate: (f) => f.messages('D0ALICE').some((m) => m.text === 'echo: still there?') });
  });
});

describe('Socket Mode wire details with a raw WebSocket', () => {
  /** Opens a socket on a fresh apps.connections.open URL and returns it with its first message. */
  async function connect(): Promise<{ ws: WebSocket; hello: Record<string, unknown> }> {
    const appClient = new WebClient(APP_TOKEN, { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR });
    const { url } = await appClient.apps.connections.open();
    assert.match(url ?? '', /^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    const ws = new WebSocket(url ?? '');
    const hello = await new Promise<Record<string, unknown>>((resolve, reject) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
      ws.once('error', reject);
    });
    return { ws, hello };
  }

  test('hello first; ws pings are answered until goSilent, which also stops envelopes', async () => {
    const { ws, hello } = await connect();
    try {
      assert.equal(hello['type'], 'hello');
      assert.equal(typeof hello['num_connections'], 'number');
      const pong = (): Promise<boolean> => new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 150);
        ws.once('pong', () => {
          clearTimeout(timer);
          resolve(true);
        });
        ws.ping('are you there');
      });
      assert.equal(await pong(), true);
      fake.goSilent();
      assert.equal(await pong(), false);
      assert.equal(ws.readyState, WebSocket.OPEN);
      await assert.rejects(fake.deliverEvent({ event: { type: 'message' }, timeoutMs: 100 }), /goSilent/);
      fake.speak();
      assert.equal(await pong(), true);
    } finally {
      fake.speak();
      ws.terminate();
    }
  });

  test('an unacknowledged envelope rejects after the timeout; a used ticket is refused', async () => {
    const { ws } = await connect();
    try {
      const envelopes: Array<Record<string, unknown>> = [];
      ws.on('message', (data) => envelopes.push(JSON.parse(String(data)) as Record<string, unknown>));
      await assert.rejects(fake.deliverEvent({ event: { type: 'message', text: 'x' }, timeoutMs: 150 }), /not acknowledged within 150 ms/);
      const envelope = envelopes[0];
      assert.equal(envelope?.['type'], 'events_api');
      assert.equal(envelope?.['retry_attempt'], 0);
      const payload = envelope?.['payload'] as Record<string, unknown>;
      assert.equal(payload['type'], 'event_callback');
      assert.equal(payload['team_id'], 'T0TEAM');
      const reused = new WebSocket(ws.url);
      const status = await new Promise<number>((resolve) => reused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      assert.equal(status, 401);
      reused.on('error', () => undefined);
      reused.terminate();
    } finally {
      ws.terminate();
    }
  });

  test('apps.connections.open refuses the bot token and a wrong app token', async () => {
    const asBot = new WebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    assert.equal((await rejection(() => asBot.apps.connections.open())).data?.error, 'not_allowed_token_type');
    const wrong = new WebClient('xapp-wrong', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    assert.equal((await rejection(() => wrong.apps.connections.open())).data?.error, 'invalid_auth');
  });
});

describe('HTTP Events API signing', () => {
  test('signedEventRequest passes Bolt’s own verification; a wrong secret or stale timestamp does not', () => {
    const now = Math.floor(Date.now() / 1000);
    const request = signedEventRequest({ body: { type: 'event_callback', event: { type: 'message' } }, secret: SECRET, retryNum: 2 });
    const headers = { 'x-slack-signature': request.headers['x-slack-signature'] ?? '', 'x-slack-request-timestamp': now };
    assert.equal(isValidSlackRequest({ signingSecret: SECRET, body: request.body, headers }), true);
    assert.equal(isValidSlackRequest({ signingSecret: 'other', body: request.body, headers }), false);
    assert.equal(request.headers['x-slack-retry-num'], '2');
    const stale = signedEventRequest({ body: request.body, secret: SECRET, timestamp: now - 600 });
    assert.equal(isValidSlackRequest({
      signingSecret: SECRET, body: stale.body,
      headers: { 'x-slack-signature': stale.headers['x-slack-signature'] ?? '', 'x-slack-request-timestamp': now - 600 },
    }), false);
  });

  test('a Bolt App with its built-in HTTP receiver accepts a signed event and rejects a forged one', async () => {
    const app = new App({ token: BOT_TOKEN, signingSecret: SECRET, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: fake.apiUrl } });
    app.message(async ({ message, say }) => {
      await say(`http echo: ${'text' in message ? String(message.text) : ''}`);
    });
    const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
      const event = fake.userMessage({ channel: 'D0HTTP', channelType: 'im', user: 'U0BOB', text: 'over http' });
      const signed = fake.signedEvent({ event });
      const accepted = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
      assert.equal(accepted.status, 200);
      await fake.waitFor({ predicate: (f) => f.messages('D0HTTP').some((m) => m.text === 'http echo: over http') });
      const forged = fake.signedEvent({ event, secret: 'not-the-secret' });
      assert.equal((await fetch(url, { method: 'POST', headers: forged.headers, body: forged.body })).status, 401);
    } finally {
      await app.stop();
    }
  });
});

describe('message metadata and history', () => {
  /** The nonce in a listed message's metadata. */
  const nonceOf = (m: { metadata?: unknown }): unknown => (m.metadata as { event_payload?: Record<string, unknown> } | undefined)?.event_payload?.['nonce'];

  test('chat.postMessage keeps metadata; conversations.history and replies return it only with include_all_metadata', async () => {
    const channel = 'C0META';
    const top = await client.chat.postMessage({ channel, text: 'top', metadata: { event_type: 'hermes_reply', event_payload: { nonce: 'n-top' } } });
    const reply = await client.chat.postMessage({ channel, text: 'in thread', thread_ts: top.ts ?? '', metadata: { event_type: 'hermes_reply', event_payload: { nonce: 'n-reply' } } });
    const withMeta = await client.conversations.history({ channel, include_all_metadata: true });
    assert.deepEqual(withMeta.messages?.map((m) => [m.text, nonceOf(m)]), [['top', 'n-top']], 'top level only');
    const without = await client.conversations.history({ channel });
    assert.equal(without.messages?.[0]?.metadata, undefined);
    const thread = await client.conversations.replies({ channel, ts: top.ts ?? '', include_all_metadata: true });
    assert.deepEqual(thread.messages?.map((m) => [m.ts, nonceOf(m)]), [[top.ts, 'n-top'], [reply.ts, 'n-reply']]);
    const later = await client.conversations.replies({ channel, ts: top.ts ?? '', oldest: top.ts ?? '' });
    assert.deepEqual(later.messages?.map((m) => m.ts), [reply.ts], 'oldest is exclusive');
    const unknown = await rejection(() => client.conversations.replies({ channel, ts: '1.000001' }));
    assert.equal(unknown.data?.error, 'thread_not_found');
    const bad = await rejection(() => client.chat.postMessage({ channel, text: 'x', metadata: { event_type: '', event_payload: {} } }));
    assert.equal(bad.data?.error, 'invalid_metadata_format');
  });

  test('holdNext: a post takes effect at once, its answer waits for release', async () => {
    const held = fake.holdNext({ method: 'chat.postMessage' });
    const posting = client.chat.postMessage({ channel: DM, text: 'held answer' });
    await held.reached;
    assert.ok(fake.messages(DM).some((m) => m.text === 'held answer'), 'posted before the answer');
    held.release();
    assert.equal((await posting).ok, true);
  });
});
