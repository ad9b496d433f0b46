import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { pipedChat } from '../helpers/cli.js';
import { until } from '../helpers/converse.js';

test('hermes chat: clarify prints the question with its numbered choices; the next line typed ("2") is the answer, not a new turn', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-clarify-'));
  const fake = new FakeOpenAI();
  await fake.start();
  let chat: ReturnType<typeof pipedChat> | undefined;
  try {
    fake.enqueue({ toolCalls: [{ name: 'clarify', arguments: { question: 'Which branch?', choices: ['main', 'release'] } }] }, { text: 'Deploying release.' });
    chat = pipedChat({ home, profile: 'me', baseURL: fake.baseURL, apiKey: 'sk-chat-clarify-key' });
    const { stdin, running } = chat;
    const out = chat.stdout;
    await chat.ready;
    stdin.write('deploy it\n');
    await until(() => out().includes('Reply with a number (1–2)'), 'the question');
    assert.match(out(), /❓ Which branch\?\n\n1\. main\n2\. release\n/);
    assert.equal(fake.requests.length, 1);
    stdin.write('2\n');
    await until(() => out().includes('Deploying release.'), 'the answer');
    stdin.end();
    assert.equal(await running, 0);
    assert.equal(fake.requests.length, 2, 'the answer started a turn of its own');
    const messages = fake.requests[1]?.body.messages ?? [];
    assert.equal(messages.filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1), 'release');
    assert.doesNotMatch(out(), /Only the owner/);
  } finally {
    chat?.stdin.end();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
