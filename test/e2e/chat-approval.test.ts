import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { pipedChat } from '../helpers/cli.js';
import { until } from '../helpers/converse.js';

test('hermes chat: the person at the terminal is the owner; the question says how to answer and /approve runs the command', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-approval-'));
  const fake = new FakeOpenAI();
  await fake.start();
  let chat: ReturnType<typeof pipedChat> | undefined;
  try {
    const dir = path.join(home, 'profiles', 'me');
    const build = path.join(dir, 'workspace', 'build');
    mkdirSync(path.join(build, 'out'), { recursive: true });
    fake.enqueue({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] }, { text: 'Removed the build folder.' });
    chat = pipedChat({ home, profile: 'me', baseURL: fake.baseURL, apiKey: 'sk-chat-approval-key' });
    const { stdin, running } = chat;
    const out = chat.stdout;
    await chat.ready;
    stdin.write('clean up the build\n');
    await until(() => out().includes('/approve'), 'the approval question');
    assert.match(out(), /rm -rf build/);
    assert.ok(existsSync(build), 'ran before the owner answered');
    stdin.write('/approve\n');
    await until(() => out().includes('Removed the build folder.'), 'the answer after the approval');
    stdin.end();
    assert.equal(await running, 0);
    assert.equal(existsSync(build), false, 'the approved command did not run');
    assert.doesNotMatch(out(), /Only the owner/);
  } finally {
    chat?.stdin.end();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
