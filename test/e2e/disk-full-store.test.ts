import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import { DiskHealth } from '../../src/gateway/ops/disk-health.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { discordAdapter, discordToken, testGuild } from '../helpers/discord.js';
import { owner as smsOwner, smsAdapter, smsSetup, startTwilio } from '../helpers/sms.js';
import { fillStore, freeStore } from '../helpers/fill-store.js';
import { startHarness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { captureLogs } from '../helpers/webhook-fuzz.js';

async function until(params: { what: string; timeoutMs: number; check: () => boolean }): Promise<void> {
  const deadline = Date.now() + params.timeoutMs;
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('Telegram on a store that fills up: messages are not acknowledged while it is full, /healthz says degraded: disk full, and every one is answered once after space returns', { timeout: 60_000 }, async () => {
  const telegram = new FakeTelegram({ token: testToken });
  await telegram.start();
  let db: Database.Database | undefined;
  const disk = new DiskHealth({ clock: systemClock, probeIntervalMs: 100 });
  const h = await startHarness({
    ...(process.env['DEBUG_DISK'] ? { logger: (await import('pino')).pino({ level: 'info' }) } : {}),
    // Queue: the two redelivered messages each get their own answer (interrupt would fold the first into the second).
    config: { gateway: { busy_policy: 'queue' } },
    disk,
    configureStore: (connection) => {
      db = connection;
    },
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake: telegram, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'] },
    ],
  });
  const chat = { id: 1001, type: 'private' as const };
  const from = { id: 1001, first_name: 'Owner' };
  const answered = (): string[] => telegram.chatMessages(1001).map((m) => m.shown);
  try {
    h.fake.setResponder((req) => {
      const users = (req.body.messages ?? []).filter((m) => m['role'] === 'user');
      return { text: `answer to ${String(users.at(-1)?.['content'] ?? '').replace(/\s+/g, ' ').trim()}` };
    });
    await until({ what: 'the Telegram adapter polling', timeoutMs: 10_000, check: () => h.runner.health().adapters.find((a) => a.name === 'telegram')?.state === 'connected' });
    telegram.pushMessage({ chat, from, text: 'before' });
    await until({ what: 'the first answer', timeoutMs: 10_000, check: () => answered().includes('answer to before') });
    assert.equal(h.runner.health().status, 'ok');

    assert.ok(db, 'the test seam gave the connection');
    fillStore({ db });
    telegram.pushMessage({ chat, from, text: 'while full one' });
    telegram.pushMessage({ chat, from, text: 'while full two' });
    await until({ what: '/healthz degraded', timeoutMs: 10_000, check: () => h.runner.health().status === 'degraded' });
    const health = h.runner.health();
    assert.equal(health.disk?.state, 'degraded');
    assert.equal(health.disk?.state === 'degraded' ? health.disk.reason : '', 'disk full');
    assert.match(JSON.stringify(health.disk), /the store cannot write \(SQLITE_FULL during [a-zA-Z]+\)/);
    // The refused updates stay with Telegram: polled again (the adapter restarts), never confirmed, never answered.
    const polls = telegram.callsTo('getUpdates').length;
    await until({ what: 'Telegram polled again', timeoutMs: 10_000, check: () => telegram.callsTo('getUpdates').length >= polls + 3 });
    assert.deepEqual(answered(), ['answer to before']);
    assert.equal(h.runner.health().status, 'degraded', 'the probe does not clear a disk that is still full');
    assert.equal(h.fake.requests.length, 1, 'nothing reached the model while the journal was refused');

    freeStore({ db });
    await until({ what: 'both refused messages answered', timeoutMs: 20_000, check: () => answered().some((t) => t.includes('while full two')) });
    await h.runner.waitIdle();
    await until({ what: '/healthz ok', timeoutMs: 5_000, check: () => h.runner.health().status === 'ok' });
    telegram.pushMessage({ chat, from, text: 'after' });
    await until({ what: 'the last answer', timeoutMs: 10_000, check: () => answered().includes('answer to after') });
    await h.runner.waitIdle();
    const texts = answered();
    assert.equal(texts.filter((t) => t.includes('while full one')).length, 1, texts.join(' | '));
    assert.equal(texts.filter((t) => t.includes('while full two')).length, 1, texts.join(' | '));
    assert.equal(texts.filter((t) => t === 'answer to before').length, 1);
    assert.equal(texts.at(-1), 'answer to after');
  } finally {
    await h.stop();
    await telegram.close();
  }
});

test('Discord (never redelivers) on a full store: the message is held, not answered and not lost, and answered once space returns', { timeout: 60_000 }, async () => {
  const discord = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await discord.start();
  const owner = { id: '200000000000000001', username: 'owner' };
  const dm = discord.openDm({ userId: owner.id, username: owner.username });
  let db: Database.Database | undefined;
  const disk = new DiskHealth({ clock: systemClock, probeIntervalMs: 100 });
  const logs = captureLogs();
  const h = await startHarness({
    disk,
    logger: logs.logger,
    configureStore: (connection) => {
      db = connection;
    },
    adapters: ({ profile, clock, logger }) => [
      { adapter: discordAdapter({ fake: discord, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id] }, refusedRetryMs: 100 }), allow: [owner.id] },
    ],
  });
  const shown = (): string[] => discord.channelMessages({ channelId: dm }).map((m) => m.content);
  try {
    h.fake.setResponder(() => ({ text: 'held and answered' }));
    await discord.waitFor({ predicate: () => discord.sessions > 0, what: 'the gateway session' });
    assert.ok(db);
    fillStore({ db });
    discord.messageCreate({ channelId: dm, author: owner, content: 'are you there?' });
    await until({ what: '/healthz degraded', timeoutMs: 10_000, check: () => h.runner.health().status === 'degraded' });
    await new Promise((r) => setTimeout(r, 4500)); // past the adapter's own short retries, into the hold
    assert.deepEqual(shown(), [], 'nothing answered (and no error) while the journal refuses it');
    const refusals = logs.lines.filter((line) => String(line['msg']).startsWith('message not taken: the store cannot journal it'));
    assert.equal(refusals.length, 1, 'offered again every 100 ms, logged once (the rest counted for the minute)');
    assert.equal(h.fake.requests.length, 0);

    freeStore({ db });
    await until({ what: 'the held message answered', timeoutMs: 15_000, check: () => shown().includes('held and answered') });
    await h.runner.waitIdle();
    assert.deepEqual(shown(), ['held and answered']);
    assert.equal(h.runner.health().status, 'ok');
  } finally {
    await h.stop();
    await discord.close();
  }
});

test('SMS (Twilio retries only when told to) on a full store: the webhook fails (503 with Retry-After, no TwiML), the message is held, and answered once space returns; a later Twilio retry is not answered twice', { timeout: 60_000 }, async () => {
  const { fake: twilio, hooks } = await startTwilio();
  let db: Database.Database | undefined;
  const disk = new DiskHealth({ clock: systemClock, probeIntervalMs: 100 });
  const h = await startHarness({
    withHttp: true,
    disk,
    configureStore: (connection) => {
      db = connection;
    },
    adapters: ({ profile, clock, logger }) => [
      { adapter: smsAdapter({ fake: twilio, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [smsOwner] }, refusedRetryMs: 100 }), allow: [smsOwner] },
    ],
  });
  try {
    const address = h.runner.httpAddress;
    assert.ok(address);
    hooks.setLocalOrigin({ origin: `http://127.0.0.1:${address.port}` });
    h.fake.setResponder(() => ({ text: 'held and answered' }));
    await until({ what: 'the SMS adapter ready', timeoutMs: 10_000, check: () => h.runner.health().adapters.find((a) => a.name === 'sms')?.state === 'connected' });
    assert.ok(db);
    fillStore({ db });
    const refused = await hooks.inbound({ from: smsOwner, to: smsSetup.botNumber, body: 'are you there?' });
    assert.equal(refused.status, 503, 'not taken: no empty TwiML that would tell Twilio it was; 503 = temporarily unable');
    assert.equal(refused.retryAfter, '30');
    assert.equal(h.runner.health().status, 'degraded');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(twilio.messagesTo({ to: smsOwner }).length, 0);

    freeStore({ db });
    await until({ what: 'the held SMS answered', timeoutMs: 15_000, check: () => twilio.messagesTo({ to: smsOwner }).length > 0 });
    assert.equal((await hooks.redeliverLast()).status, 200, 'a later Twilio retry is a duplicate the journal already has');
    await h.runner.waitIdle();
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(twilio.messagesTo({ to: smsOwner }).map((m) => m.body), ['held and answered']);
  } finally {
    await h.stop();
    await twilio.close();
  }
});
