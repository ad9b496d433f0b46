import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { LoopbackPlatform } from '../fakes/loopback/server.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { systemClock } from '../../src/util/clock.js';
import { cli } from '../helpers/cli.js';
import { startHarness } from '../helpers/harness.js';
import { TestAdapter } from '../helpers/test-adapter.js';

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

test("/healthz (what hermes status prints) never shows a secret quoted in an adapter's last error", async () => {
  class LeakyAdapter extends TestAdapter {
    override async start(): Promise<void> {
      throw new Error('connect to https://api.example/bot/sk-test-harness/getMe failed');
    }
  }
  const harness = await startHarness({ adapters: [{ adapter: new LeakyAdapter({ clock: systemClock, name: 'leaky' }), allow: 'all' }] });
  try {
    const deadline = Date.now() + 5_000;
    let leaky = harness.runner.health().adapters.find((a) => a.name === 'leaky');
    while (leaky?.lastError == null) {
      assert.ok(Date.now() < deadline, 'the leaky adapter never failed');
      await new Promise((r) => setTimeout(r, 10));
      leaky = harness.runner.health().adapters.find((a) => a.name === 'leaky');
    }
    assert.equal(leaky.lastError, 'connect to https://api.example/bot/***/getMe failed');
    assert.ok(!JSON.stringify(harness.runner.health()).includes('sk-test-harness'));
  } finally {
    await harness.stop();
  }
});

test('hermes status: exit 1 when a running gateway reports a fatal adapter; a stopped profile with a broken config says so', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-status-fatal-'));
  const health = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    const adapters = [
      { name: 'telegram', state: 'fatal', since: new Date(0).toISOString(), lastError: 'Telegram rejected the bot token (401)', restarts: 0 },
      { name: 'slack', state: 'connected', since: new Date(0).toISOString(), lastError: null, restarts: 0 },
    ];
    res.end(JSON.stringify({ status: 'degraded', profile: 'work', uptimeSeconds: 42, adapters }));
  });
  await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
  try {
    const address = health.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const work = path.join(home, 'profiles', 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(path.join(work, 'config.yaml'), '');
    writeFileSync(path.join(work, 'gateway.pid'), `${process.pid}\n`); // a live pid stands in for the gateway
    writeFileSync(path.join(work, 'gateway.json'), JSON.stringify({ pid: process.pid, startedAt: Date.now(), http: { host: '127.0.0.1', port } }));
    const broken = path.join(home, 'profiles', 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(path.join(broken, 'config.yaml'), 'gateway:\n  busy_policy: sometimes\n');
    const res = await cli({ argv: ['status'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stdout, /^work: running \(pid \d+, up 42s\), degraded$/m);
    assert.match(res.stdout, /^ {2}telegram: fatal — Telegram rejected the bot token \(401\)$/m);
    assert.match(res.stdout, /^ {2}slack: connected$/m);
    assert.match(res.stdout, /^broken: stopped; its config is invalid, so it cannot start: .*gateway\.busy_policy.*`hermes -p broken config validate`\)$/m);

    writeFileSync(path.join(work, 'gateway.pid'), '999999999\n'); // gone: no longer asked, exit 0
    const stopped = await cli({ argv: ['status'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(stopped.code, 0, stopped.stdout);
    assert.match(stopped.stdout, /^work: stopped$/m);
  } finally {
    await new Promise((resolve) => health.close(resolve));
    rmSync(home, { recursive: true, force: true });
  }
});
