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
import { systemClock } from '../../src/core/clock.js';
import { cli } from '../helpers/cli.js';
import { startHarness } from '../helpers/harness.js';
import { nodeArgsFor } from '../helpers/entry.js';
import { TestAdapter } from '../helpers/test-adapter.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

/** A `gateway run` child (the real code path plus the loopback platform) for one profile, with its output. */
function gatewayChild(params: { profile: string; env: Record<string, string>; loopbackUrl: string }): { child: ReturnType<typeof spawn>; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...nodeArgsFor('test/helpers/gateway-child.ts')], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', ...params.env, HERMES_TEST_PROFILE: params.profile, LOOPBACK_URL: params.loopbackUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

test('hermes status: a healthy running gateway, one whose model endpoint is down (exit 1 with the diagnosis), and stopped ones', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-status-'));
  const platform = new LoopbackPlatform();
  const model = new FakeOpenAI();
  await platform.start();
  await model.start();
  const dir = path.join(home, 'profiles', 'crash');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), stringify({ model: { base_url: model.baseURL, api_key: 'sk-status', name: 'fake-model' }, gateway: { http: { port: 0 } } }));
  const deadModel = `http://127.0.0.1:${await closedPort()}/v1`;
  const down = path.join(home, 'profiles', 'down');
  mkdirSync(down, { recursive: true });
  writeFileSync(path.join(down, 'config.yaml'), stringify({ model: { base_url: deadModel, api_key: 'sk-status' }, gateway: { http: { port: 0 } } }));
  mkdirSync(path.join(home, 'profiles', 'idle'), { recursive: true });
  writeFileSync(path.join(home, 'profiles', 'idle', 'config.yaml'), '');
  const env = { HERMES_HOME: home, HOME: home };
  const healthy = gatewayChild({ profile: 'crash', env, loopbackUrl: platform.baseURL });
  const broken = gatewayChild({ profile: 'down', env, loopbackUrl: platform.baseURL });
  try {
    const deadline = Date.now() + 30_000;
    let res = await cli({ argv: ['status'], env });
    // Both running and both models checked once (the first check runs at start).
    while (!/crash: running[\s\S]*model fake-model @ [^:]+:\d+: answers/.test(res.stdout) || !/down: running[\s\S]*model [^\n]*: NOT usable/.test(res.stdout)) {
      assert.ok(Date.now() < deadline, `${res.stdout}\n${healthy.output()}\n${broken.output()}`);
      await new Promise((r) => setTimeout(r, 100));
      res = await cli({ argv: ['status'], env });
    }
    assert.equal(res.code, 1, 'a gateway whose model cannot be reached answers nobody');
    assert.match(res.stdout, /^default: stopped$/m);
    assert.match(res.stdout, /^crash: running \(pid \d+, up \d+s\), ok$/m);
    assert.match(res.stdout, /^ {2}loopback: connected$/m);
    assert.match(res.stdout, /^ {2}model fake-model @ 127\.0\.0\.1:\d+: answers$/m);
    assert.match(res.stdout, /^down: running \(pid \d+, up \d+s\), degraded$/m);
    assert.match(res.stdout, /^ {2}model [^\n]*: NOT usable — cannot connect to 127\.0\.0\.1:\d+ \(connection refused: nothing listens there\)$/m);
    assert.match(res.stdout, /^ {4}fix: Start the model server, or set model\.base_url in .*down.*config\.yaml to where it listens\.$/m);
    assert.match(res.stdout, /^idle: stopped$/m);
    broken.child.kill('SIGTERM');
    assert.equal(await broken.exited, 0, broken.output());
    const one = await cli({ argv: ['status'], env });
    assert.equal(one.code, 0, one.stdout);
    healthy.child.kill('SIGTERM');
    assert.equal(await healthy.exited, 0, healthy.output());
    const after = await cli({ argv: ['status'], env });
    assert.match(after.stdout, /^crash: stopped$/m);
    assert.equal(existsSync(path.join(dir, 'gateway.json')), false, 'the state file goes with the gateway');
    assert.ok(model.modelListings.length >= 1, 'the healthy gateway checked its model');
    assert.equal(model.requests.length, 0, 'checking is not chatting');
  } finally {
    healthy.child.kill('SIGKILL');
    broken.child.kill('SIGKILL');
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
    res.end(JSON.stringify({ status: 'degraded', profile: 'work', uptimeSeconds: 4242, adapters }));
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
    assert.match(res.stdout, /^work: running \(pid \d+, up 1h 10m\), degraded$/m);
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
