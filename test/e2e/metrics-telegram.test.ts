import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

/** A gateway on Telegram's fake with /metrics on. */
async function start(): Promise<{ h: Harness; fake: FakeTelegram }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    withHttp: true,
    config: { gateway: { http: { metrics: true } } },
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'] },
    ],
  });
  return { h, fake };
}

async function scrape(h: Harness): Promise<string> {
  const address = h.runner.httpAddress;
  assert.ok(address, 'the HTTP server listens');
  return (await fetch(`http://127.0.0.1:${address.port}/metrics`)).text();
}

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(body: string, line: string): number {
  const found = body.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

test('telegram /metrics: a command reply is a message out, and the 429 its sendMessage met is counted as waited', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    fake.failNext({ method: 'sendMessage', status: 429, retryAfter: 1 });
    fake.pushMessage({ chat: dm, from: owner, text: '/help' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.includes('/new')), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.ok(fake.calls.some((c) => c.method === 'sendMessage' && c.status === 429), 'the reply met a 429 first');
    assert.equal(h.fake.requests.length, 0, 'a command, not a turn');
    const body = await scrape(h);
    const sent = fake.calls.filter((c) => c.method === 'sendMessage' && c.status === 200).length;
    assert.ok(sent >= 1);
    assert.equal(sample(body, 'hermes_messages_out_total{platform="telegram",kind="send"}'), sent, 'each message of the /help reply is counted once');
    assert.equal(sample(body, 'hermes_rate_limited_total{platform="telegram"}'), 1, 'the command reply\'s 429 was waited and counted');
    assert.equal(sample(body, 'hermes_turns_total{platform="telegram",outcome="delivered"}'), 0);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram /metrics: a turn\'s sends and edits are counted once each, as the platform got them', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.setResponder(() => ({ chunks: ['one ', 'two ', 'three'], chunkDelayMs: 400 }));
    fake.pushMessage({ chat: dm, from: owner, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'one two three'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    const body = await scrape(h);
    const ok = (method: string): number => fake.calls.filter((c) => c.method === method && c.status === 200).length;
    assert.equal(sample(body, 'hermes_messages_out_total{platform="telegram",kind="send"}'), ok('sendMessage'));
    assert.equal(sample(body, 'hermes_messages_out_total{platform="telegram",kind="edit"}'), ok('editMessageText'));
    assert.equal(sample(body, 'hermes_turns_total{platform="telegram",outcome="delivered"}'), 1);
  } finally {
    await h.stop();
    await fake.close();
  }
});
