import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { testToken } from '../helpers/telegram.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `hermes -p work gateway run` as a child process, killable with SIGKILL. */
function startGateway(params: { home: string }): { proc: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '-p', 'work', 'gateway', 'run'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: params.home, HERMES_HOME: params.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, output: () => output, exited };
}

test('kill -9 while Telegram holds the answer to the first sendMessage: after restart the preview becomes the answer, nothing else is left', { timeout: 90_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-orphan-'));
  const fake = new FakeTelegram({ token: testToken });
  const model = new FakeOpenAI();
  await fake.start();
  await model.start();
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), `TELEGRAM_BOT_TOKEN=${testToken}\nMODEL_KEY=sk-orphan-test\n`);
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: '${MODEL_KEY}' },
      gateway: { http: { port: 0 }, drain_timeout: '5s' },
      stream: { edit_interval: '250ms' },
      platforms: { telegram: { enabled: true, token: '${TELEGRAM_BOT_TOKEN}', api_root: fake.apiRoot, allowed_users: ['@owner'], merge_window: '200ms' } },
    }),
  );
  const full = 'INFL- the full answer, finished after the restart.';
  // The first attempt shows "INFL-" and then stalls (it is killed); the replay answers at once.
  model.enqueue({ chunks: ['INFL-', ' the', ' full'], chunkDelayMs: 5_000 }, { text: full });
  const held = fake.holdNext({ method: 'sendMessage' });
  let gateway = startGateway({ home });
  try {
    await fake.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'getUpdates'), timeoutMs: 30_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${gateway.output()}`);
    });
    fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text: 'answer me' });
    await held.reached;
    const preview = fake.chatMessages(77);
    assert.equal(preview.length, 1, 'Telegram accepted the first sendMessage');
    assert.match(preview[0]?.shown ?? '', /^INFL-/);
    gateway.proc.kill('SIGKILL');
    await gateway.exited;
    held.release();

    gateway = startGateway({ home });
    await fake.waitFor({ predicate: (f) => f.chatMessages(77).some((m) => m.shown === full), timeoutMs: 30_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${gateway.output()}`);
    });
    gateway.proc.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
    const messages = fake.chatMessages(77).filter((m) => !m.deleted);
    assert.equal(messages.length, 1, `expected one message, got: ${messages.map((m) => JSON.stringify(m.shown)).join(' | ')}`);
    assert.equal(messages[0]?.message_id, preview[0]?.message_id, 'the preview itself became the answer');
    assert.equal(messages[0]?.shown, full);
    assert.equal(fake.callsTo('sendMessage').length, 1, 'the replay sent no second message');
    const log = readFileSync(path.join(dir, 'logs', 'gateway.log'), 'utf8');
    assert.match(log, /adopted the message an interrupted send created/);
  } finally {
    gateway.proc.kill('SIGKILL');
    held.release();
    await fake.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
