import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import { defineTool } from '../../src/tools/tool.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

/** A gateway on the fake Telegram with every tool line shown and a `probe_gate` tool that waits until `open()`. */
async function startGated(): Promise<{ fake: FakeTelegram; h: Harness; open: () => void; entered: () => boolean }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered = false;
  const gateTool = defineTool({
    name: 'probe_gate',
    description: 'waits for the test',
    input: z.object({}),
    parallel: 'never',
    handler: async () => {
      entered = true;
      await opened;
      return 'ok';
    },
  });
  const h = await startHarness({
    config: { stream: { edit_interval: '1s' }, display: { tool_progress: 'all' } },
    extraTools: [gateTool],
    adapters: ({ profile, clock, logger }): { adapter: TelegramAdapter; allow: string[] }[] => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'] },
    ],
  });
  return { fake, h, open: () => open(), entered: () => entered };
}


test('telegram: tool lines stream in the reply (first message, edited at most once a second) and the answer replaces them', { timeout: 30_000 }, async () => {
  const { fake, h, open, entered } = await startGated();
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo hi' } }] },
      { toolCalls: [{ name: 'search_files', arguments: { pattern: 'TODO' } }] },
      { toolCalls: [{ name: 'probe_gate', arguments: {} }] },
      { chunks: ['No TODOs ', 'left.'], chunkDelayMs: 20 },
    );
    fake.pushMessage({ chat: dm, from: owner, text: 'any todos?' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).length === 1, timeoutMs: 10_000 });
    assert.match(fake.chatMessages(dm.id)[0]?.shown ?? '', /^⚙ terminal: echo hi/);
    const lines = '⚙ terminal: echo hi\n🔎 search_files "TODO"\n🔧 probe_gate ▉';
    await fake.waitFor({ predicate: (f) => entered() && f.chatMessages(dm.id)[0]?.shown === lines, timeoutMs: 10_000 });
    open();
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id)[0]?.shown === 'No TODOs left.', timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(fake.chatMessages(dm.id).length, 1, 'the lines never became messages of their own');
    const ops = fake.calls.filter((c) => (c.method === 'sendMessage' || c.method === 'editMessageText') && String(c.params['chat_id']) === String(dm.id));
    assert.equal(ops.filter((c) => c.method === 'sendMessage').length, 1);
    for (let i = 1; i < ops.length; i++) {
      const gap = (ops[i]?.at ?? 0) - (ops[i - 1]?.at ?? 0);
      assert.ok(gap >= 990, `two calls ${gap} ms apart`);
    }
  } finally {
    open();
    await h.stop();
    await fake.close();
  }
});

test('telegram: a tool line shows its command as it ran, Markdown in it not rendered (no italics from *, no link)', { timeout: 30_000 }, async () => {
  const { fake, h, open, entered } = await startGated();
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'ls *.txt *.md __init__ `pwd`' } }] },
      { toolCalls: [{ name: 'search_files', arguments: { pattern: '[x](https://example.com)' } }] },
      { toolCalls: [{ name: 'probe_gate', arguments: {} }] },
      { text: 'Done.' },
    );
    fake.pushMessage({ chat: dm, from: owner, text: 'look' });
    const lines = "⚙ terminal: ls *.txt *.md __init__ 'pwd'\n🔎 search_files \"[x](https://example.com)\"\n🔧 probe_gate ▉";
    await fake.waitFor({ predicate: (f) => entered() && (f.chatMessages(dm.id)[0]?.shown ?? '').includes('probe_gate'), timeoutMs: 10_000 });
    assert.equal(fake.chatMessages(dm.id)[0]?.shown, lines);
    open();
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id)[0]?.shown === 'Done.', timeoutMs: 10_000 });
    await h.runner.waitIdle();
  } finally {
    open();
    await h.stop();
    await fake.close();
  }
});
