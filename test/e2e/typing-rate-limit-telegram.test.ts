import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

test('telegram: a 429 on the first sign of life (sendChatAction) is waited out (no call to the chat, not even the reply, before retry_after) and counted', { timeout: 30_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    // Typing is refreshed every 500 ms: a loop that ignored the 429 would call again well inside retry_after.
    config: { stream: { typing_interval: '500ms' }, gateway: { http: { metrics: true } } },
    withHttp: true,
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'], mergeWindowMs: 1000 },
    ],
  });
  try {
    // The first token comes ~1 s after the request: the reply's first send then falls inside retry_after.
    h.fake.setResponder(() => ({ chunks: ['hi ', 'back'], chunkDelayMs: 500 }));
    fake.failNext({ method: 'sendChatAction', status: 429, retryAfter: 2 });
    fake.pushMessage({ chat: dm, from: owner, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'hi back'), timeoutMs: 15_000 });
    await h.runner.waitIdle();
    const toChat = fake.calls.filter((c) => String(c.params['chat_id']) === String(dm.id));
    const refused = toChat.find((c) => c.method === 'sendChatAction' && c.status === 429);
    assert.ok(refused, 'the typing call was refused');
    const refusedAt = refused.answeredAt ?? refused.at;
    // Typing runs beside the reply: a send that left the gateway before the 429 answer reached it may arrive just after
    // the answer (it was in flight). Anything later inside retry_after would be a call made during the block.
    const inFlightMs = 300;
    const early = toChat.filter((c) => c.at > refusedAt + inFlightMs && c.at - refusedAt < 2000);
    assert.deepEqual(
      early.map((c) => `${c.method} +${c.at - refusedAt} ms`),
      [],
      'nothing calls the chat (typing, the reply) before retry_after 2 s passed',
    );
    assert.equal(fake.chatMessages(dm.id).length, 1, 'the reply was sent once');
    const address = h.runner.httpAddress;
    assert.ok(address, 'the HTTP server listens');
    const metrics = await (await fetch(`http://127.0.0.1:${address.port}/metrics`)).text();
    assert.match(metrics, /^hermes_rate_limited_total\{platform="telegram"\} 1$/m, 'the typing call\'s 429 counts among the 429s waited');
  } finally {
    await h.stop();
    await fake.close();
  }
});
