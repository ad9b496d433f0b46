import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { nodeArgsFor } from '../helpers/entry.js';
import { LoopbackPlatform } from '../fakes/loopback/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const child = path.join(root, 'test/helpers/gateway-child.ts');

function startGateway(params: { home: string; loopback: string }): { proc: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const proc = spawn(process.execPath, [...nodeArgsFor(child)], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: params.home, HERMES_HOME: params.home, HERMES_TEST_PROFILE: 'crash', LOOPBACK_URL: params.loopback },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, output: () => output, exited };
}

async function until(params: { what: string; timeoutMs: number; check: () => boolean; output?: () => string }): Promise<void> {
  const deadline = Date.now() + params.timeoutMs;
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}\n${params.output?.() ?? ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('SIGKILL while the model streams: after restart the message is answered once, finished in place', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-crash-'));
  const fake = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await fake.start();
  await platform.start();
  const profileDir = path.join(home, 'profiles', 'crash');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(path.join(profileDir, '.env'), 'MODEL_KEY=sk-crash-test-key\n');
  writeFileSync(
    path.join(profileDir, 'config.yaml'),
    stringify({
      model: { base_url: fake.baseURL, api_key: '${MODEL_KEY}', name: 'fake' },
      gateway: { http: { port: 0 }, drain_timeout: '5s' },
      stream: { edit_interval: '250ms' },
    }),
  );
  const words = Array.from({ length: 80 }, (_, i) => `w${i}`);
  const full = words.join(' ');
  // First attempt streams slowly (and is killed); the replay streams the whole answer at once.
  fake.enqueue({ chunks: words.map((w, i) => (i ? ` ${w}` : w)), chunkDelayMs: 60 }, { text: full });
  let first = startGateway({ home, loopback: platform.baseURL });
  try {
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'count for me', messageId: 'msg-1' });
    await until({ what: 'a partly streamed reply', timeoutMs: 20_000, output: first.output, check: () => (platform.chat('c1')[0]?.edits ?? 0) >= 2 });
    first.proc.kill('SIGKILL');
    await first.exited;
    const partial = platform.chat('c1')[0];
    assert.ok(partial, 'no reply was started');
    assert.notEqual(partial.text, full, 'the reply finished before the kill; the test needs a slower stream');
    // The platform was acknowledged once the message was journaled: only the inbox replay can answer it now.
    assert.equal(platform.unacknowledged, 0, 'the update is acknowledged after journaling');

    const second = startGateway({ home, loopback: platform.baseURL });
    first = second;
    await until({ what: 'the reply finished in place', timeoutMs: 20_000, output: second.output, check: () => platform.chat('c1')[0]?.text === full });
    await new Promise((r) => setTimeout(r, 800));
    const replies = platform.chat('c1');
    assert.equal(replies.length, 1, `expected one reply message, got ${replies.map((m) => m.text.slice(0, 30)).join(' | ')}`);
    assert.equal(replies[0]?.text, full);
    assert.equal(fake.requests.length, 2, 'the replayed turn called the model once more, nothing else did');
    assert.equal(platform.unacknowledged, 0);
    // The replayed request carries the user's message once.
    const users = (fake.requests[1]?.body.messages ?? []).filter((m) => m['role'] === 'user');
    assert.equal(users.length, 1);

    second.proc.kill('SIGTERM');
    assert.equal(await second.exited, 0, second.output());
    const log = readFileSync(path.join(profileDir, 'logs', 'gateway.log'), 'utf8');
    assert.match(log, /resuming a turn a restart cut short/);
    assert.doesNotMatch(log, /sk-crash-test-key/);
  } finally {
    first.proc.kill('SIGKILL');
    await fake.close();
    await platform.close();
    rmSync(home, { recursive: true, force: true });
  }
});
