import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { LoopbackPlatform } from '../fakes/loopback/server.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('hermes status shows each profile: a running gateway with its adapters, and stopped ones', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-status-'));
  const platform = new LoopbackPlatform();
  const model = new FakeOpenAI();
  await platform.start();
  await model.start();
  const dir = path.join(home, 'profiles', 'crash');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), stringify({ model: { base_url: model.baseURL, api_key: 'sk-status' }, gateway: { http: { port: 0 } } }));
  mkdirSync(path.join(home, 'profiles', 'idle'), { recursive: true });
  writeFileSync(path.join(home, 'profiles', 'idle', 'config.yaml'), '');
  const env = { HERMES_HOME: home, HOME: home };
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/gateway-child.ts'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', ...env, HERMES_TEST_PROFILE: 'crash', LOOPBACK_URL: platform.baseURL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!existsSync(path.join(dir, 'gateway.json')) || !output.includes('running')) {
      assert.ok(Date.now() < deadline, output);
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await cli({ argv: ['status'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^default: stopped$/m);
    assert.match(res.stdout, /^crash: running \(pid \d+, up \d+s\), ok$/m);
    assert.match(res.stdout, /^ {2}loopback: connected$/m);
    assert.match(res.stdout, /^idle: stopped$/m);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    const after = await cli({ argv: ['status'], env });
    assert.match(after.stdout, /^crash: stopped$/m);
    assert.equal(existsSync(path.join(dir, 'gateway.json')), false, 'the state file goes with the gateway');
  } finally {
    child.kill('SIGKILL');
    await platform.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
