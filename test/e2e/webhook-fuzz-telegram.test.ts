import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { mutateJson, Prng } from '../helpers/fuzz.js';
import { startHarness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { assertNoErrorLines, captureLogs, fuzzRoute, untilModelSaw } from '../helpers/webhook-fuzz.js';

const secret = 'fuzz-secret-token-0123456789';
const publicUrl = 'https://bot.example.com/telegram/webhook';
const owner = { id: 1001, is_bot: false, first_name: 'Owner', username: 'owner' };
const stranger = { id: 2002, is_bot: false, first_name: 'Stranger', last_name: 'S', username: 'stranger' };
const group = { id: -100555, type: 'supergroup', title: 'Team', is_forum: true };
const photo = [
  { file_id: 'ph-small', file_unique_id: 'u-small', width: 90, height: 90, file_size: 1000 },
  { file_id: 'ph-big', file_unique_id: 'u-big', width: 800, height: 800, file_size: 50_000 },
];

/** Valid updates from a stranger, of the kinds the adapter reads; mutated, they must never reach the agent. */
function templates(n: number): Record<string, unknown>[] {
  const dm = { id: stranger.id, type: 'private', first_name: 'Stranger' };
  return [
    { update_id: n, message: { message_id: n, date: 1, chat: dm, from: stranger, text: '/start hello', entities: [{ type: 'bot_command', offset: 0, length: 6 }] } },
    { update_id: n, message: { message_id: n, date: 1, chat: group, from: stranger, is_topic_message: true, message_thread_id: 7, caption: '@testbot look', caption_entities: [{ type: 'mention', offset: 0, length: 8 }], photo } },
    { update_id: n, message: { message_id: n, date: 1, chat: group, from: stranger, text: 'hey you', entities: [{ type: 'text_mention', offset: 4, length: 3, user: { id: 42, is_bot: true, first_name: 'Bot' } }], reply_to_message: { message_id: 3, date: 1, chat: group, from: { id: 42, is_bot: true, first_name: 'Bot' }, text: 'earlier' } } },
    { update_id: n, edited_message: { message_id: n, date: 1, edit_date: 2, chat: dm, from: stranger, text: 'edited' } },
    { update_id: n, message: { message_id: n, date: 1, chat: dm, from: stranger, document: { file_id: 'doc', file_unique_id: 'u-doc', file_name: 'a.pdf', mime_type: 'application/pdf', file_size: 10 }, voice: { file_id: 'v', file_unique_id: 'u-v', duration: 1 } } },
  ];
}

test('telegram webhook fuzz: thousands of signed, structurally mutated updates get 2xx/4xx, no error line, and well-formed ones still reach the agent', { timeout: 90_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const logs = captureLogs();
  const h = await startHarness({
    withHttp: true,
    logger: logs.logger,
    config: { stream: { edit_interval: '1s' } },
    adapters: ({ profile, clock, logger }) => [
      {
        adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'], unauthorized: 'ignore', mode: 'webhook', webhook: { url: publicUrl, secret_token: secret } } }),
        allow: ['1001'],
        unauthorized: 'ignore',
        mergeWindowMs: 50,
      },
    ],
  });
  try {
    await fake.waitFor({ predicate: (f) => f.webhook?.url === publicUrl });
    fake.addChat({ id: owner.id, type: 'private', first_name: 'Owner' });
    h.fake.setResponder(() => ({ text: 'ok' }));
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/telegram/webhook`;
    const rng = new Prng({ seed: 20_261_201 });
    const valid: string[] = [];
    const statuses = await fuzzRoute({
      count: 3000,
      send: async (i) => {
        let payload: unknown;
        if (i % 150 === 0) {
          const text = `well-formed ${i}`;
          valid.push(text);
          payload = { update_id: 900_000 + i, message: { message_id: 900_000 + i, date: 1, chat: { id: owner.id, type: 'private' }, from: owner, text } };
        } else {
          payload = mutateJson({ rng, value: rng.pick(templates(100_000 + i)) });
        }
        const body = JSON.stringify(payload);
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret }, body });
        const text = await res.text();
        if (i % 150 === 0) assert.equal(res.status, 200, `well-formed update answered ${res.status}: ${text}`);
        return { status: res.status, what: `${body} → ${text}` };
      },
    });
    assert.ok((statuses.get(200) ?? 0) > 100, 'many mutated updates were still readable (skipped for a stranger, 200)');
    await untilModelSaw({ fake: h.fake, texts: valid });
    assertNoErrorLines({ lines: logs.lines });
    const skipped = logs.lines.filter((line) => line['reason'] === 'malformed');
    assert.ok(skipped.length >= 1 && skipped.length <= 2, `malformed updates from one source are logged once per minute, not ${skipped.length} times`);
  } finally {
    await h.stop();
    await fake.close();
  }
});
