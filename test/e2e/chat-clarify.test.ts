import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { until } from '../helpers/converse.js';

test('hermes chat: clarify prints the question with its numbered choices; the next line typed ("2") is the answer, not a new turn', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-clarify-'));
  const fake = new FakeOpenAI();
  await fake.start();
  const stdin = new PassThrough();
  try {
    const dir = path.join(home, 'profiles', 'me');
    mkdirSync(path.join(dir, 'workspace'), { recursive: true });
    writeFileSync(path.join(dir, '.env'), 'OPENAI_API_KEY=sk-chat-clarify-key\n');
    writeFileSync(path.join(dir, 'config.yaml'), `model:\n  base_url: ${fake.baseURL}\n  api_key: \${OPENAI_API_KEY}\n  max_retries: 0\n`);
    fake.enqueue({ toolCalls: [{ name: 'clarify', arguments: { question: 'Which branch?', choices: ['main', 'release'] } }] }, { text: 'Deploying release.' });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.resume();
    const running = runCli({ argv: ['-p', 'me', 'chat'], io: { stdin, stdout, stderr, env: { HERMES_HOME: home, HOME: home }, isTTY: false } });
    stdin.write('deploy it\n');
    await until(() => out.includes('Reply with a number (1–2)'), 'the question');
    assert.match(out, /❓ Which branch\?\n\n1\. main\n2\. release\n/);
    assert.equal(fake.requests.length, 1);
    stdin.write('2\n');
    await until(() => out.includes('Deploying release.'), 'the answer');
    stdin.end();
    assert.equal(await running, 0);
    assert.equal(fake.requests.length, 2, 'the answer started a turn of its own');
    const messages = fake.requests[1]?.body.messages ?? [];
    assert.equal(messages.filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1), 'release');
    assert.doesNotMatch(out, /Only the owner/);
  } finally {
    stdin.end();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
