import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { bwrapAvailability } from '../helpers/bwrap.js';
import { cli } from '../helpers/cli.js';
import { testToken } from '../helpers/telegram.js';
import { writeProfile } from '../unit/cli/ops-support.js';

const model = new FakeOpenAI();
const telegram = new FakeTelegram({ token: testToken });
const homes: string[] = [];

before(async () => {
  await model.start();
  await telegram.start();
});
after(async () => {
  await model.close();
  await telegram.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A fresh HERMES_HOME with one profile "p": the fake model, telegram on the fake Telegram, secrets in a 0600 .env. */
function healthyHome(params: { token?: string; baseUrl?: string } = {}): { home: string; dir: string; env: Record<string, string> } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-doctor-'));
  homes.push(home);
  const dir = writeProfile({
    home,
    name: 'p',
    config: {
      model: { base_url: params.baseUrl ?? model.baseURL, api_key: '${MODEL_KEY}', name: 'fake-model' },
      gateway: { http: { port: 0 } },
      platforms: { telegram: { enabled: true, token: '${TG_TOKEN}', api_root: telegram.apiRoot } },
    },
    dotenv: `MODEL_KEY=sk-doctor\nTG_TOKEN=${params.token ?? testToken}\n`,
  });
  return { home, dir, env: { HERMES_HOME: home, HOME: home } };
}

/** The check lines of a doctor run (✓/✗/! lines), by name. */
function marks(stdout: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const match = /^([✓✗!]) ([^:]+):/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) found.set(match[2], match[1]);
  }
  return found;
}

// Without bubblewrap here the sandbox line is a "!" (the rest must still be ✓); in CI bwrap is installed.
const bwrapWorks = bwrapAvailability().skip === false;

test('a healthy profile with its gateway running: every check ✓, exit 0', async () => {
  const { dir, env } = healthyHome();
  // A stand-in for the running gateway: a live process whose pid and HTTP address are in gateway.pid / gateway.json,
  // as `gateway run` writes them (test/e2e/status.test.ts covers the real gateway writing them).
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    writeFileSync(path.join(dir, 'gateway.pid'), `${child.pid}\n`);
    writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify({ pid: child.pid, startedAt: Date.now() - 61_000, http: { host: '127.0.0.1', port: 45_678 } }));
    const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const found = marks(res.stdout);
    for (const name of ['node', 'sqlite', 'HERMES_HOME', 'profile folder', '.env', 'config', 'model endpoint', 'telegram', 'other profiles', 'gateway', 'http port']) {
      assert.equal(found.get(name), '✓', `${name}:\n${res.stdout}`);
    }
    assert.equal(found.get('terminal sandbox'), bwrapWorks ? '✓' : '!', res.stdout);
    assert.ok(![...found.entries()].some(([name, mark]) => mark !== '✓' && (bwrapWorks || name !== 'terminal sandbox')), res.stdout);
    assert.match(res.stdout, /✓ telegram: bot @hermes_test_bot/);
    assert.match(res.stdout, new RegExp(`✓ gateway: running \\(pid ${child.pid}, up 1m \\d+s\\)`), "uptime from gateway.json (the check itself may take a few seconds on a loaded machine)");
    assert.match(res.stdout, /✓ http port: 127\.0\.0\.1:45678 is this gateway's/);
    assert.match(res.stdout, /✓ model endpoint: .* answers \(1 model, "fake-model" among them\)/);
    assert.match(res.stdout, /^✓ context length: 32,768 tokens \(a default: set model\.context_length to change it\)$/m);
    if (bwrapWorks) assert.match(res.stdout, /^✓ terminal sandbox: bwrap \(network off\)$/m);
    assert.match(res.stdout, /^all good$/m);
    assert.ok(!res.stdout.includes(testToken) && !res.stdout.includes('sk-doctor'), 'no secret is printed');
    assert.equal(model.modelListings.at(-1)?.headers.authorization, 'Bearer sk-doctor', 'the model check sends the API key');
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
});

test('a stopped profile: "! gateway: not running" with how to start it, still exit 0', async () => {
  const { env } = healthyHome();
  const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
  assert.equal(res.code, 0, res.stdout);
  assert.match(res.stdout, /^! gateway: not running\n {4}fix: Start it: `hermes -p p gateway run`/m);
  assert.match(res.stdout, /^✓ http port: any free port/m);
});

test('sandbox: none: "! terminal sandbox: none: …; the terminal runs unconfined", still exit 0', async () => {
  const { dir, env } = healthyHome();
  const config = readFileSync(path.join(dir, 'config.yaml'), 'utf8');
  writeFileSync(path.join(dir, 'config.yaml'), `${config}\ntools:\n  terminal:\n    sandbox: none\n`);
  const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
  assert.equal(res.code, 0, res.stdout);
  assert.match(res.stdout, /^! terminal sandbox: none: tools\.terminal\.sandbox is none; the terminal runs unconfined\n {4}fix: /m);
});

test('a broken config: the diagnosis is printed, the other checks still run, exit 1', async () => {
  const { dir, env } = healthyHome();
  writeFileSync(path.join(dir, 'config.yaml'), 'gateway:\n  busy_policy: sometimes\n');
  const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
  assert.equal(res.code, 1);
  assert.match(res.stdout, /^✗ config: .*config\.yaml: gateway\.busy_policy: expected .*\n {4}fix: /m);
  const found = marks(res.stdout);
  for (const name of ['node', 'sqlite', 'HERMES_HOME', '.env']) assert.equal(found.get(name), '✓', res.stdout);
  assert.equal(found.get('gateway'), '!');
  assert.match(res.stdout, /! model, platforms, http port: not checked/);
});

test('a model endpoint that is down: "cannot connect", exit 1', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const { env } = healthyHome({ baseUrl: `http://127.0.0.1:${port}/v1` });
  const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
  assert.equal(res.code, 1);
  assert.match(res.stdout, new RegExp(`^✗ model endpoint: cannot connect to 127\\.0\\.0\\.1:${port} \\(connection refused.*\\n {4}fix: Start the model server`, 'm'));
  assert.equal(marks(res.stdout).get('telegram'), '✓', 'the platform checks still run');
});

test('a .env readable by others: ✗ with the chmod fix', async () => {
  const { dir, env } = healthyHome();
  chmodSync(path.join(dir, '.env'), 0o644);
  const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
  assert.equal(res.code, 1);
  assert.match(res.stdout, new RegExp(`^✗ \\.env: .*mode 0644.*\\n {4}fix: chmod 600 ${path.join(dir, '.env').replace(/[/.]/g, '\\$&')}$`, 'm'));
});

test('a wrong Telegram token: ✗ naming telegram, exit 1, the token not printed', async () => {
  const wrong = '999:WRONG-TOKEN-VALUE';
  const { env } = healthyHome({ token: wrong });
  const res = await cli({ argv: ['-p', 'p', 'doctor'], env });
  assert.equal(res.code, 1);
  assert.match(res.stdout, /^✗ telegram: Telegram rejected the bot token \(401 Unauthorized\)\n {4}fix: .*@BotFather/m);
  assert.ok(!res.stdout.includes(wrong));
});
