import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { nodeArgsFor } from '../helpers/entry.js';
import { testToken } from '../helpers/telegram.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('`hermes gateway run` with platforms.telegram enabled answers a Telegram DM (config → factory → grammy)', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-tg-run-'));
  const fake = new FakeTelegram({ token: testToken });
  const model = new FakeOpenAI();
  await fake.start();
  await model.start();
  model.setResponder(() => ({ text: 'Hello from **hermes**.' }));
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), `TELEGRAM_BOT_TOKEN=${testToken}\nMODEL_KEY=sk-run-test\n`);
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: '${MODEL_KEY}' },
      gateway: { http: { port: 0 } },
      platforms: { telegram: { enabled: true, token: '${TELEGRAM_BOT_TOKEN}', api_root: fake.apiRoot, allowed_users: ['@owner'], merge_window: '200ms' } },
    }),
  );
  let output = '';
  const child = spawn(process.execPath, [...nodeArgsFor('src/cli/main.ts'), '-p', 'work', 'gateway', 'run'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: home, HERMES_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await fake.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'getUpdates'), timeoutMs: 30_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
    fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(77).some((m) => m.shown === 'Hello from hermes.'), timeoutMs: 15_000 });
    assert.match(output, /running for profile "work" \(telegram\)/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    const log = readFileSync(path.join(dir, 'logs', 'gateway.log'), 'utf8');
    assert.ok(!log.includes(testToken) && !log.includes('TEST-token'), 'the bot token reached the log');
    assert.ok(!output.includes('TEST-token'));
  } finally {
    child.kill('SIGKILL');
    await fake.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
