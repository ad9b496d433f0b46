import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { openStore } from '../../src/store/sqlite-store.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { until } from '../helpers/gateway-process.js';
import { nodeArgsFor } from '../helpers/entry.js';
import { writeChatProfile } from '../helpers/pty-chat.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('hermes chat with piped input: SIGINT mid-answer stops the answer (as /stop), drops the lines behind it and exits 0 promptly', { timeout: 90_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-piped-sigint-'));
  const fake = new FakeOpenAI();
  await fake.start();
  writeChatProfile({ home, baseURL: fake.baseURL });
  const child = spawn(process.execPath, [...nodeArgsFor('src/cli/main.ts'), '-p', 'me', 'chat'], {
    cwd: root,
    env: { ...process.env, HERMES_HOME: home, HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await until({ what: 'the prompt', timeoutMs: 60_000, check: () => output.includes('› '), output: () => output });
    fake.enqueue({ chunks: ['Working on ', 'it'], hangAfterChunks: 1 });
    // The second line waits behind the first (piped lines queue); stdin stays open, as a slow script's would.
    child.stdin.write('a long one\nsecond question\n');
    await until({ what: 'the streamed start', timeoutMs: 15_000, check: () => output.includes('Working on'), output: () => output });
    const signalled = Date.now();
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000))]);
    assert.equal(code, 0, output);
    assert.ok(Date.now() - signalled < 10_000, 'the chat ended promptly');
    await until({ what: 'the model request cut', timeoutMs: 5000, check: () => fake.requests[0]?.cut === true });
    assert.equal(fake.requests.length, 1, 'the queued line was not answered');
    const store = openStore({ path: path.join(home, 'profiles', 'me', 'state.db'), clock: systemClock });
    try {
      assert.deepEqual(store.pendingInbound().map((r) => r.event.text), [], 'nothing left pending to answer on the next start');
    } finally {
      store.close();
    }
  } finally {
    child.kill('SIGKILL');
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
