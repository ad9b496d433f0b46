import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI, type CapturedRequest } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import type { BotMessage } from '../fakes/telegram/types.js';
import { startCliGateway, until } from '../helpers/gateway-process.js';
import { testToken } from '../helpers/telegram.js';

const owner = { id: 77, first_name: 'Owner', username: 'owner' };
const dm = { id: owner.id, type: 'private' as const };

function last(req: CapturedRequest): { role: string; content: string } {
  const message = req.body.messages?.at(-1);
  return { role: String(message?.['role'] ?? ''), content: String(message?.['content'] ?? '') };
}

/** The clarify questions the bot sent (not the reply's `❓ clarify` progress line). */
function questions(fake: FakeTelegram): BotMessage[] {
  return fake.chatMessages(dm.id).filter((m) => !m.deleted && m.shown.startsWith('❓ ') && !m.shown.startsWith('❓ clarify'));
}

test('clarify: kill -9 while a question waits; after the restart the turn replays and asks again, the old question\'s button answers "expired"', { timeout: 120_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-clarify-crash-'));
  const tg = new FakeTelegram({ token: testToken });
  await tg.start();
  tg.addChat({ id: owner.id, type: 'private', first_name: owner.first_name });
  const model = new FakeOpenAI();
  await model.start();
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), 'MODEL_KEY=sk-clarify-crash-test\n');
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: '${MODEL_KEY}' },
      gateway: { http: { port: 0 }, drain_timeout: '5s' },
      skills: { review: false, review_interval: 1000 },
      memory: { review_interval: 1000 },
      platforms: { telegram: { enabled: true, token: testToken, api_root: tg.apiRoot, allowed_users: ['@owner'], merge_window: '0s' } },
    }),
  );
  model.setResponder((req) => {
    const message = last(req);
    if (message.role === 'tool') return { text: `Going with ${message.content}.` };
    return { toolCalls: [{ name: 'clarify', arguments: { question: 'Which colour?', choices: ['Red', 'Blue'] } }] };
  });
  let gateway = startCliGateway({ home, profile: 'work' });
  try {
    await until({ what: 'the gateway to connect', timeoutMs: 30_000, check: () => tg.calls.some((c) => c.method === 'getUpdates'), output: gateway.output });
    tg.pushMessage({ chat: dm, from: owner, text: 'pick a colour' });
    await until({ what: 'the question', timeoutMs: 30_000, check: () => questions(tg).length === 1, output: gateway.output });
    const old = questions(tg)[0] as BotMessage;
    assert.deepEqual(tg.buttons({ chatId: dm.id, messageId: old.message_id }).flat().map((b) => b.text), ['Red', 'Blue']);
    gateway.proc.kill('SIGKILL');
    await gateway.exited;

    gateway = startCliGateway({ home, profile: 'work' });
    const current = gateway;
    // The turn was not finished: it replays, and its clarify call asks again (a new question).
    await until({ what: 'the replayed question', timeoutMs: 60_000, check: () => questions(tg).length === 2, output: current.output });
    const asked = model.requests.filter((r) => last(r).content === 'pick a colour').length;
    assert.equal(asked, 2, 'the turn did not replay');
    const fresh = questions(tg)[1] as BotMessage;
    // The old question's button belongs to a question no process waits for: "expired", and it starts nothing.
    tg.press({ chatId: dm.id, messageId: old.message_id, from: owner, label: 'Red' });
    await until({ what: 'the old press answered', timeoutMs: 15_000, check: () => tg.presses[0]?.answer !== undefined, output: current.output });
    assert.match(tg.presses[0]?.answer?.text ?? '', /already answered or has expired/);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!model.requests.some((r) => last(r).role === 'tool'), 'the old press answered the new question');
    tg.press({ chatId: dm.id, messageId: fresh.message_id, from: owner, label: 'Blue' });
    await until({ what: 'the answer', timeoutMs: 30_000, check: () => tg.chatMessages(dm.id).some((m) => m.shown === 'Going with Blue.'), output: current.output });
    current.proc.kill('SIGTERM');
    assert.equal(await current.exited, 0, current.output());
  } finally {
    gateway.proc.kill('SIGKILL');
    await tg.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
