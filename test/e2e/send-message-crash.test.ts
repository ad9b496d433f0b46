import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI, type CapturedRequest } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startCliGateway, until } from '../helpers/gateway-process.js';
import { testToken } from '../helpers/telegram.js';

/** The owner (who asks) and a second allowed person (whom the message is for), each in their private chat with the bot. */
const owner = { id: 77, first_name: 'Owner', username: 'owner' };
const friend = { id: 88, first_name: 'Friend', username: 'friend' };
const note = 'Dinner is at 8.';

/** The last message of a request (a user's text or a tool result). */
function last(req: CapturedRequest): { role: string; content: string } {
  const message = req.body.messages?.at(-1);
  return { role: String(message?.['role'] ?? ''), content: String(message?.['content'] ?? '') };
}

/** The bot's messages in a chat, as shown. */
function shown(fake: FakeTelegram, chatId: number): string[] {
  return fake.chatMessages(chatId).filter((m) => !m.deleted).map((m) => m.shown);
}

for (const when of ['before', 'after'] as const) {
  const where = when === 'before' ? 'between the tool call and the send' : 'between the send and its record';
  test(`send_message: kill -9 ${where}; after the restart the message has arrived exactly once`, { timeout: 120_000 }, async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-send-crash-'));
    const tg = new FakeTelegram({ token: testToken });
    await tg.start();
    const model = new FakeOpenAI();
    await model.start();
    const dir = path.join(home, 'profiles', 'work');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '.env'), 'MODEL_KEY=sk-send-crash-test\n');
    writeFileSync(
      path.join(dir, 'config.yaml'),
      stringify({
        model: { base_url: model.baseURL, api_key: '${MODEL_KEY}' },
        gateway: { http: { port: 0 }, drain_timeout: '5s' },
        platforms: { telegram: { enabled: true, token: testToken, api_root: tg.apiRoot, allowed_users: ['@owner', '@friend'], merge_window: '0s' } },
      }),
    );
    // The friend's "hi" gets "hello"; the owner's request gets the send_message call, then "Told them." after its result.
    model.setResponder((req) => {
      const message = last(req);
      if (message.role === 'tool') return { text: 'Told them.' };
      if (message.content.includes('tell my friend')) return { toolCalls: [{ name: 'send_message', arguments: { action: 'send', target: `telegram:${friend.id}`, message: note } }] };
      return { text: 'hello' };
    });
    let gateway = startCliGateway({ home, profile: 'work' });
    let release = (): void => undefined;
    try {
      await until({ what: 'the gateway to connect', timeoutMs: 30_000, check: () => tg.calls.some((c) => c.method === 'getUpdates'), output: gateway.output });
      // The friend writes first: telegram:88 becomes a chat the profile talks with.
      tg.pushMessage({ chat: { id: friend.id, type: 'private' }, from: friend, text: 'hi' });
      await until({ what: 'the reply to the friend', timeoutMs: 30_000, check: () => shown(tg, friend.id).includes('hello'), output: gateway.output });
      const toolSend = tg.holdNextIn({ method: 'sendMessage', chatId: friend.id, when });
      release = () => toolSend.release();
      tg.pushMessage({ chat: { id: owner.id, type: 'private' }, from: owner, text: 'please tell my friend dinner is at 8' });
      await toolSend.reached;
      assert.deepEqual(shown(tg, friend.id), when === 'before' ? ['hello'] : ['hello', note], 'what the platform shows at the kill');
      gateway.proc.kill('SIGKILL');
      await gateway.exited;
      const polls = tg.calls.filter((c) => c.method === 'getUpdates').length;

      gateway = startCliGateway({ home, profile: 'work' });
      const current = gateway;
      // The held call is let go only once the fake has surely seen its client gone (the new process polls): a "before"
      // hold released at once could still be served (the message created) before the dead connection's close arrives.
      await until({ what: 'the restarted gateway to poll', timeoutMs: 30_000, check: () => tg.calls.filter((c) => c.method === 'getUpdates').length > polls, output: current.output });
      toolSend.release();
      await until({ what: 'the owner’s answer after the restart', timeoutMs: 60_000, check: () => shown(tg, owner.id).includes('Told them.'), output: current.output });
      await new Promise((r) => setTimeout(r, 500));
      current.proc.kill('SIGTERM');
      assert.equal(await current.exited, 0, current.output());
      assert.deepEqual(shown(tg, friend.id), ['hello', note], 'the message arrived exactly once');
      assert.equal(tg.chatMessages(friend.id).length, 2, 'no second message was ever created');
      // The replayed turn called the tool again; its result tells the model what happened.
      const result = model.requests.map(last).filter((m) => m.role === 'tool').at(-1)?.content ?? '';
      if (when === 'after') assert.match(result, /^Already sent to telegram:88 earlier in this turn/);
      else assert.match(result, /^Sent to telegram:88 \(an earlier attempt of this send was cut short/);
      const log = readFileSync(path.join(dir, 'logs', 'gateway.log'), 'utf8');
      if (when === 'after') assert.match(log, /adopted the message an interrupted send created/);
      assert.ok(!log.includes(note), 'the message body is not logged');
    } finally {
      gateway.proc.kill('SIGKILL');
      release();
      await tg.close();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
}
