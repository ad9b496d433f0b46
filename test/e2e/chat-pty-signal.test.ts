import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { until } from '../helpers/gateway-process.js';
import { startPtyChat, writeChatProfile } from '../helpers/pty-chat.js';

test('hermes chat on a terminal: SIGINT from outside mid-answer stops the answer and ends the chat with 0, terminal modes restored', { timeout: 90_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-sigint-'));
  const fake = new FakeOpenAI();
  await fake.start();
  writeChatProfile({ home, baseURL: fake.baseURL });
  const chat = startPtyChat({ home });
  try {
    await chat.waitFor({ pattern: '› ', timeoutMs: 60_000 });
    fake.enqueue({ chunks: ['Working on ', 'it'], hangAfterChunks: 1 });
    chat.type('a long one\r');
    await chat.waitFor({ pattern: 'Working on' });
    chat.signal('SIGINT');
    assert.equal(await chat.exited, 0);
    await until({ what: 'the model request cut', timeoutMs: 5000, check: () => fake.requests[0]?.cut === true });
    assert.ok(chat.output().includes('\u001b[?2004l'), 'bracketed paste left on');
  } finally {
    chat.kill();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
