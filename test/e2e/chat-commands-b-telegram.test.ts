import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { roles } from '../helpers/request-roles.js';
import { gateTool, type GateTool } from '../helpers/gate-tool.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

async function start(): Promise<{ fake: FakeTelegram; h: Harness; gate: GateTool }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const gate = gateTool();
  const h = await startHarness({
    config: { stream: { edit_interval: '1s' }, display: { tool_progress: 'off' } },
    extraTools: [gate.tool],
    adapters: ({ profile, clock, logger }): { adapter: TelegramAdapter; allow: string[] }[] => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'] },
    ],
  });
  return { fake, h, gate };
}

test('telegram: /retry answers the last message again (same user text, old answer gone); the menu lists the new commands', { timeout: 30_000 }, async () => {
  const { fake, h, gate } = await start();
  try {
    h.fake.enqueue({ text: 'a dull answer' }, { text: 'a better answer' });
    fake.pushMessage({ chat: dm, from: owner, text: 'name a colour' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'a dull answer'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    fake.pushMessage({ chat: dm, from: owner, text: '/retry' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'a better answer'), timeoutMs: 10_000 });
    assert.equal(h.fake.requests.length, 2);
    assert.deepEqual(roles(h.fake.requests[1]), ['user:name a colour']);
    const names = fake.myCommands().map((c) => c.command);
    for (const name of ['retry', 'undo', 'queue', 'steer']) assert.ok(names.includes(name), name);
  } finally {
    gate.open();
    await h.stop();
    await fake.close();
  }
});

test('telegram: /steer during a turn with a tool call reaches its next model call; the turn is not aborted', { timeout: 30_000 }, async () => {
  const { fake, h, gate } = await start();
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { text: 'short version' });
    fake.pushMessage({ chat: dm, from: owner, text: 'explain the log' });
    await fake.waitFor({ predicate: () => gate.entered(), timeoutMs: 10_000 });
    fake.pushMessage({ chat: dm, from: owner, text: '/steer keep it short' });
    // The steer is accepted (journaled) before the gate opens.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const store = h.readStore();
      const pending = store.pendingInbound().length;
      store.close();
      if (pending === 2) break;
      assert.ok(Date.now() < deadline, 'the /steer message was never accepted');
      await new Promise((r) => setTimeout(r, 20));
    }
    gate.open();
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'short version'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    assert.deepEqual(roles(h.fake.requests[1]), ['user:explain the log', 'assistant:probe_gate', 'tool:gate opened', 'user:keep it short']);
    assert.ok(!fake.chatMessages(dm.id).some((m) => (m.shown ?? '').includes('(stopped)')), 'not aborted');
  } finally {
    gate.open();
    await h.stop();
    await fake.close();
  }
});
