import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeSlack, signedEventRequest } from '../fakes/slack/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';
import { smsSetup, startSmsGateway } from '../helpers/sms.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { assertNoErrorLines, captureLogs, untilConnected, type CapturedLogs } from '../helpers/webhook-fuzz.js';

const secret = 'repro-secret-token-0123456789';
const publicUrl = 'https://bot.example.com/telegram/webhook';

async function telegramGateway(): Promise<{ h: Harness; fake: FakeTelegram; logs: CapturedLogs; url: string }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const logs = captureLogs();
  const h = await startHarness({
    withHttp: true,
    logger: logs.logger,
    config: { gateway: { http: { body_limit_bytes: 16 * 1024 } } },
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1'], mode: 'webhook', webhook: { url: publicUrl, secret_token: secret } } }), allow: ['1'], unauthorized: 'ignore' },
    ],
  });
  await fake.waitFor({ predicate: (f) => f.webhook?.url === publicUrl });
  const address = h.runner.httpAddress;
  assert.ok(address);
  return { h, fake, logs, url: `http://127.0.0.1:${address.port}/telegram/webhook` };
}

async function slackGateway(): Promise<{ h: Harness; fake: FakeSlack; logs: CapturedLogs; url: string }> {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const logs = captureLogs();
  const h = await startHarness({
    withHttp: true,
    logger: logs.logger,
    adapters: ({ profile, clock, logger }) => [
      { adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { mode: 'http', allowed_users: ['U0OWNER'] } }), allow: ['U0OWNER'], unauthorized: 'ignore' },
    ],
  });
  await untilConnected({ runner: h.runner, name: 'slack' });
  const address = h.runner.httpAddress;
  assert.ok(address);
  return { h, fake, logs, url: `http://127.0.0.1:${address.port}/slack/events` };
}

test('telegram webhook: authenticated updates the adapter cannot read (from: null, text: 5, photo: {}, no is_bot) get 200-and-skip, not 500', { timeout: 20_000 }, async () => {
  const { h, fake, logs, url } = await telegramGateway();
  try {
    const chat = { id: 1, type: 'private' };
    const bodies = [
      '{"update_id":1,"message":{"message_id":1,"from":null,"chat":{"id":1,"type":"private"},"text":"a"}}',
      JSON.stringify({ update_id: 2, message: { message_id: 2, from: { id: 1, is_bot: false, first_name: 'A' }, chat, text: 5 } }),
      JSON.stringify({ update_id: 3, message: { message_id: 3, from: { id: 1, is_bot: false, first_name: 'A' }, chat, photo: {} } }),
      JSON.stringify({ update_id: 4, message: { message_id: 4, from: { id: 1, first_name: 'A' }, chat, text: 'no is_bot' } }),
      JSON.stringify({ update_id: 5, message: { message_id: 5, from: { id: 1, is_bot: false, first_name: 'A' }, chat, text: 'hi', entities: [{ type: 'text_mention', offset: 0, length: 2 }] } }),
      JSON.stringify({ update_id: 6, message: { message_id: 6, from: { id: 1, is_bot: false, first_name: 'A' }, chat, caption: 'empty album', photo: [] } }),
    ];
    for (const body of bodies) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret }, body });
      assert.ok(res.status === 200, `${body} → ${res.status} ${await res.text()}`);
    }
    assertNoErrorLines({ lines: logs.lines });
    assert.ok(logs.lines.some((line) => line['msg'] === 'Telegram update of an unexpected shape skipped' && line['issue'] === 'message.from: Invalid input: expected object, received null'), 'the skip is logged with where the shape was wrong');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('slack events: signed bodies of the wrong shape ([] or ts/channel null) get 200-and-skip; a timestamp over 5 min in the future is refused like an old one', { timeout: 20_000 }, async () => {
  const { h, fake, logs, url } = await slackGateway();
  try {
    const post = async (params: { body: string; timestamp?: number }): Promise<number> => {
      const signed = signedEventRequest({ body: params.body, secret: slackTokens.signingSecret, ...(params.timestamp !== undefined ? { timestamp: params.timestamp } : {}) });
      return (await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body })).status;
    };
    assert.equal(await post({ body: '[]' }), 200);
    const nulls = { type: 'event_callback', event_id: 'EvNull', event: { type: 'message', channel_type: 'im', user: 'U0OWNER', text: 'x', ts: null, channel: null } };
    assert.equal(await post({ body: JSON.stringify(nulls) }), 200);
    assert.equal(await post({ body: JSON.stringify({ type: 'event_callback', event_id: 'EvNone' }) }), 200, 'no event at all');
    assert.equal(await post({ body: JSON.stringify({ type: 'app_rate_limited', minute_rate_limited: 1 }) }), 200, 'a callback type the adapter does not handle');
    assertNoErrorLines({ lines: logs.lines });
    const now = Math.floor(Date.now() / 1000);
    const fine = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    assert.equal(await post({ body: fine, timestamp: now + 100_000 }), 401, 'a timestamp 100,000 s ahead is refused');
    assert.equal(await post({ body: fine, timestamp: now + 400 }), 401, 'more than five minutes ahead is refused');
    assert.equal(await post({ body: fine, timestamp: now - 400 }), 401, 'more than five minutes old is refused (Bolt)');
    assert.equal(await post({ body: fine, timestamp: now + 200 }), 200, 'a clock a little ahead is fine');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('unauthenticated floods are logged once per source and reason, not once per request (Telegram token, Slack and Twilio signatures, oversized bodies)', { timeout: 30_000 }, async () => {
  const tg = await telegramGateway();
  const slack = await slackGateway();
  const sms = await startSmsGateway();
  try {
    const smsUrl = sms.hooks.toLocal({ url: smsSetup.webhookUrl });
    for (let i = 0; i < 300; i++) {
      const answers = await Promise.all([
        fetch(tg.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': `wrong-${i}` }, body: '{"update_id":1}' }),
        fetch(tg.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(20 * 1024) }),
        fetch(slack.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-slack-signature': 'v0=00', 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) }, body: '{}' }),
        fetch(smsUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged' }, body: 'From=%2B1555&Body=hi' }),
      ]);
      assert.deepEqual(answers.map((a) => a.status), [401, 413, 401, 403]);
      await Promise.all(answers.map((a) => a.arrayBuffer()));
    }
    const count = (lines: readonly Record<string, unknown>[], msg: string): number => lines.filter((line) => line['msg'] === msg).length;
    assert.equal(count(tg.logs.lines, 'Telegram webhook request with a wrong secret token rejected'), 1);
    assert.equal(count(tg.logs.lines, 'request rejected'), 1, 'oversized bodies, rejected by fastify itself');
    assert.equal(count(slack.logs.lines, 'Slack event with a bad signature rejected'), 1);
    assert.equal(count(sms.logs, 'Twilio request with a missing or wrong X-Twilio-Signature rejected'), 1);
    const first = tg.logs.lines.find((line) => line['msg'] === 'Telegram webhook request with a wrong secret token rejected');
    assert.equal(first?.['source'], '127.0.0.1');
    assert.equal(first?.['reason'], 'bad_token');
  } finally {
    await Promise.all([tg.h.stop(), slack.h.stop(), sms.stop()]);
    await Promise.all([tg.fake.close(), slack.fake.close()]);
  }
});

test('slack Socket Mode: an event of the wrong shape is acknowledged and skipped (not left for Slack to redeliver forever)', { timeout: 20_000 }, async () => {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const logs = captureLogs();
  const h = await startHarness({
    logger: logs.logger,
    adapters: ({ profile, clock, logger }) => [{ adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['U0OWNER'] } }), allow: ['U0OWNER'], unauthorized: 'ignore' }],
  });
  try {
    await untilConnected({ runner: h.runner, name: 'slack' });
    const delivery = await fake.deliverEvent({ event: { type: 'message', channel_type: 'im', user: 'U0OWNER', text: 'x', ts: null, channel: null }, eventId: 'EvSocketNull', timeoutMs: 3000 });
    assert.equal(delivery.eventId, 'EvSocketNull');
    assert.ok(delivery.ack, 'acknowledged');
    assertNoErrorLines({ lines: logs.lines });
    assert.ok(logs.lines.some((line) => line['msg'] === 'Slack event of an unexpected shape skipped'));
  } finally {
    await h.stop();
    await fake.close();
  }
});
