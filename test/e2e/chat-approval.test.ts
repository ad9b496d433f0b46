import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { until } from '../helpers/converse.js';

test('hermes chat: the person at the terminal is the owner; the question says how to answer and /approve runs the command', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-approval-'));
  const fake = new FakeOpenAI();
  await fake.start();
  const stdin = new PassThrough();
  try {
    const dir = path.join(home, 'profiles', 'me');
    const build = path.join(dir, 'workspace', 'build');
    mkdirSync(path.join(build, 'out'), { recursive: true });
    writeFileSync(path.join(dir, '.env'), 'OPENAI_API_KEY=sk-chat-approval-key\n');
    writeFileSync(path.join(dir, 'config.yaml'), `model:\n  base_url: ${fake.baseURL}\n  api_key: \${OPENAI_API_KEY}\n  max_retries: 0\n`);
    fake.enqueue({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] }, { text: 'Removed the build folder.' });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.resume();
    const running = runCli({ argv: ['-p', 'me', 'chat'], io: { stdin, stdout, stderr, env: { HERMES_HOME: home, HOME: home }, isTTY: false } });
    stdin.write('clean up the build\n');
    await until(() => out.includes('/approve'), 'the approval question');
    assert.match(out, /rm -rf build/);
    assert.ok(existsSync(build), 'ran before the owner answered');
    stdin.write('/approve\n');
    await until(() => out.includes('Removed the build folder.'), 'the answer after the approval');
    stdin.end();
    assert.equal(await running, 0);
    assert.equal(existsSync(build), false, 'the approved command did not run');
    assert.doesNotMatch(out, /Only the owner/);
  } finally {
    stdin.end();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
