import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EMPTY_TWIML } from '../../adapters/sms/routes.js';
import { assertLogsClean, owner, smsSetup, startSmsGateway, stranger, until } from '../helpers/sms.js';

const bot = smsSetup.botNumber;

test('sms: a signed message is answered through the REST API; forged, re-addressed or oversized requests never reach the model', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway();
  try {
    const refused = [
      await g.hooks.inbound({ from: owner, to: bot, body: 'hi' }, { alter: (p) => ({ ...p, Body: 'send me everything' }) }),
      await g.hooks.inbound({ from: owner, to: bot, body: 'hi' }, { signUrl: 'https://sms.example.test/some/other/path' }),
      await g.hooks.inbound({ from: owner, to: bot, body: 'hi' }, { signToken: 'not-the-auth-token' }),
      await g.hooks.inbound({ from: owner, to: bot, body: 'hi' }, { unsigned: true }),
    ];
    assert.deepEqual(refused.map((a) => a.status), [403, 403, 403, 403]);
    const huge = await g.hooks.post({ url: smsSetup.webhookUrl, params: { Body: 'x' }, body: `Body=${'x'.repeat(80 * 1024)}` });
    assert.equal(huge.status, 413);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(g.h.fake.requests.length, 0, 'the model was never called');
    assert.ok(g.logs.some((l) => l['msg'] === 'Twilio request with a missing or wrong X-Twilio-Signature rejected'));

    g.h.fake.enqueue({ text: 'Hello **there**, see [the docs](https://example.com/docs).\n\n```\nnpm test\n```' });
    const answer = await g.hooks.inbound({ from: owner, to: bot, body: 'hello?' });
    assert.deepEqual([answer.status, answer.contentType.split(';')[0], answer.text], [200, 'text/xml', EMPTY_TWIML]);
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1 });
    const [sent] = g.fake.messagesTo({ to: owner });
    assert.equal(sent?.from, bot);
    assert.equal(sent?.body, 'Hello there, see the docs (https://example.com/docs).\n\nnpm test');
    assert.equal(sent?.statusCallback, `${smsSetup.webhookUrl}/status`);
    const userText = (g.h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'];
    assert.equal(userText, 'hello?');
    await g.h.runner.waitIdle();
    assertLogsClean({ logs: g.logs, numbers: [owner, bot] });
  } finally {
    await g.stop();
  }
});

test('sms: Twilio retrying the same MessageSid (even while the first is being taken) gets one answer', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway();
  try {
    g.h.fake.setResponder(() => ({ text: 'just once' }));
    const first = g.hooks.inbound({ from: owner, to: bot, body: 'ping' });
    const retry = g.hooks.redeliverLast();
    assert.deepEqual((await Promise.all([first, retry])).map((a) => a.status), [200, 200]);
    assert.equal((await g.hooks.redeliverLast()).status, 200);
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1 });
    await new Promise((r) => setTimeout(r, 300));
    await g.h.runner.waitIdle();
    assert.equal(g.h.fake.requests.length, 1);
    assert.equal(g.fake.messagesTo({ to: owner }).length, 1);
  } finally {
    await g.stop();
  }
});

test('sms: a 3,500-character answer arrives as three SMS of at most 1600 characters, nothing lost', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway();
  try {
    const sentences: string[] = [];
    for (let i = 0; sentences.join(' ').length < 3500; i++) sentences.push(`Sentence number ${i} says something short but useful.`);
    const text = sentences.join(' ').slice(0, 3500).replace(/\s\S*$/, '.');
    g.h.fake.enqueue({ chunks: [text.slice(0, 1000), text.slice(1000, 2500), text.slice(2500)], chunkDelayMs: 30 });
    await g.hooks.inbound({ from: owner, to: bot, body: 'tell me a lot' });
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 3 });
    await g.h.runner.waitIdle();
    const bodies = g.fake.messagesTo({ to: owner }).map((m) => m.body);
    assert.equal(bodies.length, 3);
    for (const body of bodies) assert.ok(body.length <= 1600, `an SMS of ${body.length} characters`);
    assert.equal(bodies.join(' '), text);
  } finally {
    await g.stop();
  }
});

test('sms: a stranger gets a pairing code but no agent answer, and their media is not downloaded', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway();
  try {
    const media = g.fake.addMedia({ bytes: Buffer.from('secret picture'), contentType: 'image/jpeg' });
    const answer = await g.hooks.inbound({ from: stranger, to: bot, body: 'let me in', media: [media] });
    assert.equal(answer.status, 200);
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: stranger }).length === 1 });
    await g.h.runner.waitIdle();
    assert.equal(g.h.fake.requests.length, 0, 'the model was never called');
    assert.match(g.fake.messagesTo({ to: stranger })[0]?.body ?? '', /pairing approve sms/);
    assert.ok(!g.fake.calls.some((c) => c.path === new URL(media.url).pathname), 'the media was not fetched');
    // A message from the bot's own number (a loop) is acknowledged and ignored.
    assert.equal((await g.hooks.inbound({ from: bot, to: bot, body: 'echo' })).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(g.fake.sent.length, 1);
    assertLogsClean({ logs: g.logs, numbers: [stranger, bot] });
  } finally {
    await g.stop();
  }
});

test('sms: a 429 (Twilio 20429) is waited out and exactly one copy is delivered; a Messaging Service SID is used', { timeout: 20_000 }, async () => {
  const messagingServiceSid = 'MG0123456789abcdef0123456789abcdef';
  const g = await startSmsGateway({ overrides: { from_number: '', messaging_service_sid: messagingServiceSid } });
  try {
    g.fake.rateLimitNext();
    g.h.fake.enqueue({ text: 'after the wait' });
    await g.hooks.inbound({ from: owner, to: bot, body: 'hurry' });
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1, timeoutMs: 10_000 });
    await g.h.runner.waitIdle();
    const creates = g.fake.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/Messages.json'));
    assert.deepEqual(creates.map((c) => c.status), [429, 201]);
    assert.ok((creates[1]?.at ?? 0) - (creates[0]?.at ?? 0) >= 1000, 'no new attempt before the wait');
    const [sent] = g.fake.messagesTo({ to: owner });
    assert.deepEqual([sent?.body, sent?.messagingServiceSid, sent?.from], ['after the wait', messagingServiceSid, undefined]);
  } finally {
    await g.stop();
  }
});

test("sms: a 429 with Retry-After is waited out for as long as Twilio asked", { timeout: 20_000 }, async () => {
  const g = await startSmsGateway();
  try {
    g.fake.rateLimitNext({ retryAfterSeconds: 2 });
    g.h.fake.enqueue({ text: 'patience' });
    await g.hooks.inbound({ from: owner, to: bot, body: 'slow down' });
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1, timeoutMs: 10_000 });
    const creates = g.fake.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/Messages.json'));
    assert.deepEqual(creates.map((c) => c.status), [429, 201]);
    assert.ok((creates[1]?.at ?? 0) - (creates[0]?.at ?? 0) >= 2000, `called again after ${(creates[1]?.at ?? 0) - (creates[0]?.at ?? 0)} ms, not the 2 s Twilio asked for`);
  } finally {
    await g.stop();
  }
});

test('sms: status callbacks are signature-checked, logged with the number masked and kept in adapter storage', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway();
  try {
    g.h.fake.enqueue({ text: 'tracked' });
    await g.hooks.inbound({ from: owner, to: bot, body: 'track this' });
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1 });
    const sent = g.fake.messagesTo({ to: owner })[0];
    assert.ok(sent?.statusCallback);
    const report = { callbackUrl: sent.statusCallback, messageSid: sent.sid, to: owner, from: bot };
    assert.equal((await g.hooks.status({ ...report, status: 'undelivered', errorCode: '30003' }, { signToken: 'forged' })).status, 403);
    assert.equal((await g.hooks.status({ ...report, status: 'sent' })).status, 204);
    assert.equal((await g.hooks.status({ ...report, status: 'undelivered', errorCode: '30003' })).status, 204);
    const store = g.h.readStore();
    try {
      const stored: unknown = JSON.parse(store.getCursor({ name: 'sms:delivery_status' }) ?? '[]');
      assert.ok(Array.isArray(stored));
      assert.equal(stored.length, 1, 'one report per message, the latest');
      assert.deepEqual({ ...(stored[0] as Record<string, unknown>), at: 0 }, { messageSid: sent.sid, status: 'undelivered', errorCode: '30003', at: 0 });
    } finally {
      store.close();
    }
    const line = g.logs.find((l) => l['msg'] === 'SMS not delivered');
    assert.deepEqual([line?.['errorCode'], line?.['to']], ['30003', '+1555***1111']);
    await g.h.runner.waitIdle();
    assertLogsClean({ logs: g.logs, numbers: [owner, bot] });
  } finally {
    await g.stop();
  }
});

test('sms: wrong credentials stop the adapter at start with a hint (no restarts)', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway({ overrides: { auth_token: 'wrong-token-for-this-account' } });
  try {
    await until({ check: () => g.h.runner.health().adapters.find((a) => a.name === 'sms')?.state === 'fatal', what: 'the adapter to stop' });
    const status = g.h.runner.health().adapters.find((a) => a.name === 'sms');
    assert.match(status?.lastError ?? '', /Twilio rejected the account SID or auth token \(HTTP 401, error 20003\).*platforms\.sms\.auth_token/);
  } finally {
    await g.stop();
  }
});
