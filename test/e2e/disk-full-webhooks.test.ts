import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import { DiskHealth } from '../../src/gateway/ops/disk-health.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeSlack } from '../fakes/slack/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { fillStore, freeStore } from '../helpers/fill-store.js';
import { startHarness } from '../helpers/harness.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { assertNoErrorLines, captureLogs, untilConnected } from '../helpers/webhook-fuzz.js';

const secret = 'disk-full-secret-token-0123456789';
const publicUrl = 'https://bot.example.com/telegram/webhook';
const refusedLine = 'message not taken: the store cannot journal it (disk full); the platform delivers it again';

/** Error lines other than the one that says the disk went degraded (one per change of state). */
function assertOnlyDiskStateErrors(params: { lines: readonly Record<string, unknown>[] }): void {
  const lines = params.lines.filter((line) => !String(line['msg']).startsWith('disk refuses writes (disk full)'));
  assertNoErrorLines({ lines });
  assert.ok(params.lines.filter((line) => String(line['msg']).startsWith('disk refuses writes')).length <= 1);
}

async function until(params: { what: string; timeoutMs: number; check: () => boolean }): Promise<void> {
  const deadline = Date.now() + params.timeoutMs;
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('Telegram webhook on a full store: every redelivery gets 503 with Retry-After (not 500), the refusals are one warn line (no error lines), and the update is answered once space returns', { timeout: 30_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const logs = captureLogs();
  let db: Database.Database | undefined;
  const h = await startHarness({
    withHttp: true,
    logger: logs.logger,
    disk: new DiskHealth({ clock: systemClock, probeIntervalMs: 100 }),
    configureStore: (connection) => {
      db = connection;
    },
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1'], mode: 'webhook', webhook: { url: publicUrl, secret_token: secret } } }), allow: ['1'] },
    ],
  });
  try {
    await fake.waitFor({ predicate: (f) => f.webhook?.url === publicUrl });
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/telegram/webhook`;
    fake.addChat({ id: 1, type: 'private', first_name: 'Owner' });
    h.fake.setResponder(() => ({ text: 'taken after all' }));
    const body = JSON.stringify({ update_id: 77, message: { message_id: 7, date: 1, from: { id: 1, is_bot: false, first_name: 'Owner' }, chat: { id: 1, type: 'private' }, text: 'while full' } });
    const post = (): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret }, body });
    assert.ok(db);
    fillStore({ db });
    for (let i = 0; i < 5; i++) {
      const res = await post();
      assert.equal(res.status, 503, `attempt ${i}: ${await res.text()}`);
      assert.equal(res.headers.get('retry-after'), '30');
    }
    assertOnlyDiskStateErrors({ lines: logs.lines });
    assert.equal(logs.lines.filter((line) => line['msg'] === refusedLine).length, 1, 'five refusals, one line (the rest are counted)');
    assert.equal(h.runner.health().status, 'degraded');

    freeStore({ db });
    assert.equal((await post()).status, 200);
    await until({ what: 'the answer', timeoutMs: 10_000, check: () => fake.chatMessages(1).some((m) => m.shown === 'taken after all') });
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('Slack events on a full store: a signed event gets 503 with Retry-After (not 500) and one warn line; Slack\'s retry is answered once space returns', { timeout: 30_000 }, async () => {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const logs = captureLogs();
  let db: Database.Database | undefined;
  const h = await startHarness({
    withHttp: true,
    logger: logs.logger,
    disk: new DiskHealth({ clock: systemClock, probeIntervalMs: 100 }),
    configureStore: (connection) => {
      db = connection;
    },
    adapters: ({ profile, clock, logger }) => [
      { adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { mode: 'http', allowed_users: ['U0OWNER'] } }), allow: ['U0OWNER'] },
    ],
  });
  try {
    await untilConnected({ runner: h.runner, name: 'slack' });
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/slack/events`;
    h.fake.setResponder(() => ({ text: 'taken after all' }));
    const channel = 'D0OWNER';
    const event = fake.userMessage({ channel, channelType: 'im', user: 'U0OWNER', text: 'while full' });
    const post = async (retryNum?: number): Promise<Response> => {
      const signed = fake.signedEvent({ event, eventId: 'EvFull1', ...(retryNum !== undefined ? { retryNum } : {}) });
      return fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    };
    assert.ok(db);
    fillStore({ db });
    for (let i = 0; i < 3; i++) {
      const res = await post(i === 0 ? undefined : i);
      assert.equal(res.status, 503, `attempt ${i}: ${await res.text()}`);
      assert.equal(res.headers.get('retry-after'), '30');
    }
    assertOnlyDiskStateErrors({ lines: logs.lines });
    assert.equal(logs.lines.filter((line) => line['msg'] === refusedLine).length, 1);

    freeStore({ db });
    assert.equal((await post(3)).status, 200);
    await until({ what: 'the answer', timeoutMs: 10_000, check: () => fake.messages(channel).some((m) => m.text.replace(/\u200b/g, '') === 'taken after all') });
  } finally {
    await h.stop();
    await fake.close();
  }
});
