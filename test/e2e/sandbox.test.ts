import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { terminalSandboxFor } from '../../src/tools/sandbox/terminal-sandbox.js';
import { resolveProfile } from '../../src/home/profile.js';
import { ensureProfileDirs } from '../../src/home/ensure-dirs.js';
import { terminalTool } from '../../src/tools/builtin/terminal.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { systemClock } from '../../src/core/clock.js';
import { bwrapAvailability } from '../helpers/bwrap.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { processesWith } from '../helpers/processes.js';
import { leakedPiece } from '../helpers/secret-leaks.js';

const { skip } = bwrapAvailability();

// The profile's secrets (its .env) and one in the gateway process's own environment.
const modelKey = 'sk-SBXmodelKEY0h4Jd8Lq2Vx6Nc1Rg5Tw9';
const botToken = '7000000003:SBXtgTOKEN000Zq8Wm3Xr5Tb7Yn2Pk9aa';
const gatewaySecret = 'gw-SBXprocessENV7c1e9a3f5b2d8e4c6a';
// No word of a path in it: the leak check looks for any 8 letters of it in the output, which shows the profile's path.
const otherProfileSecret = 'oth-SBX5f2a8c4e1b7d3a9c0q7';

describe('the terminal under bwrap', { skip }, () => {
  let h: Harness;
  let other: string;
  before(async () => {
    process.env['HERMES_TEST_GATEWAY_SECRET'] = gatewaySecret;
    // HERMES_HOME lies under /tmp (os.tmpdir()), as a real install's does not: the private /tmp must not undo its hiding.
    // tools.approval off: reading .env and writing /etc are dangerous commands; the sandbox, not approval, is tested here.
    h = await startHarness({
      env: { MODEL_KEY: modelKey, TELEGRAM_BOT_TOKEN: botToken },
      config: { model: { api_key: '${MODEL_KEY}' }, tools: { approval: 'off', terminal: { sandbox: 'bwrap', timeout: '20s' } } },
    });
    const otherProfile = resolveProfile({ hermesHome: h.profile.hermesHome, name: 'personal' });
    ensureProfileDirs({ profile: otherProfile });
    fs.writeFileSync(otherProfile.envPath, `MODEL_KEY=${otherProfileSecret}\n`, { mode: 0o600 });
    other = otherProfile.dir;
  });
  after(async () => {
    delete process.env['HERMES_TEST_GATEWAY_SECRET'];
    await h.stop();
  });

  /** The terminal tool's context as the gateway builds it from the profile's config (bootstrap's terminalSandboxFor). */
  function ctx(params: { network?: boolean; timeoutMs?: number } = {}): ToolContext {
    const config = { ...h.config, tools: { ...h.config.tools, terminal: { ...h.config.tools.terminal, network: params.network ?? false } } };
    const { spec } = terminalSandboxFor({ config, profile: h.profile });
    assert.equal(spec?.kind, 'bwrap');
    return {
      workspace: h.profile.workspaceDir,
      confineToWorkspace: true,
      signal: new AbortController().signal,
      clock: systemClock,
      terminal: { timeoutMs: params.timeoutMs ?? 20_000, maxOutputBytes: 65_536, sandbox: spec },
      // What the sandbox does is tested here, not approval (reading .env, writing /etc are dangerous commands): tools.approval off.
      approval: { decide: async () => ({ approved: true, how: 'off' }) },
    };
  }
  const run = (command: string, context: ToolContext = ctx()): Promise<string> => terminalTool.handler({ command }, context);

  test('from the workspace the profile’s .env, state.db, config.yaml and logs cannot be read (they exist outside)', async () => {
    for (const file of [h.profile.envPath, h.profile.dbPath, h.profile.configPath]) assert.ok(fs.existsSync(file), `${file} exists on the host`);
    for (const command of ['cat ../.env', 'cat ../state.db', 'cat ../config.yaml', `cat ${h.profile.envPath}`, `cat ${h.profile.dbPath}`, `ls ${h.profile.logsDir}`]) {
      const out = await run(command);
      assert.match(out, /No such file or directory\n\[exit code: [12]\]$/, `${command}:\n${out}`);
    }
    assert.equal(await run('ls -A ..'), 'workspace\n[exit code: 0]', 'the profile folder shows only the workspace');
  });

  test('tools.workspace set to the profile folder: the terminal runs nothing (its files would be in reach) and says why', async () => {
    const config = { ...h.config, tools: { ...h.config.tools, workspace: h.profile.dir } };
    const { spec } = terminalSandboxFor({ config, profile: h.profile });
    assert.equal(spec?.kind, 'unavailable');
    const context: ToolContext = { ...ctx(), workspace: h.profile.dir, terminal: { ...ctx().terminal, sandbox: spec } };
    await assert.rejects(run('cat .env', context), /cannot hide the profile's files: tools\.workspace/);
  });

  test('other profiles are invisible', async () => {
    assert.ok(fs.existsSync(path.join(other, '.env')));
    assert.match(await run(`cat ${path.join(other, '.env')}`), /No such file or directory\n\[exit code: 1\]$/);
    assert.equal(await run(`ls -A ${h.profile.hermesHome}/profiles`), `${path.basename(h.profile.dir)}\n[exit code: 0]`);
  });

  test('no network unless tools.terminal.network: true (a loopback port the test listens on)', async () => {
    const server = net.createServer((socket) => socket.end());
    let connections = 0;
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address !== null && typeof address === 'object');
    const connect = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${address.port}' && echo connected`;
    try {
      const off = await run(connect, ctx());
      assert.match(off, /Connection refused/);
      assert.match(off, /\[exit code: 1\]$/);
      assert.ok(!off.includes('connected\n'));
      assert.equal(connections, 0);
      const on = await run(connect, ctx({ network: true }));
      assert.equal(on, 'connected\n[exit code: 0]');
      assert.equal(connections, 1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a unix socket of a host service is out of reach: all of /run without the network, /run/user (D-Bus session, systemd --user) with it', async (t) => {
    const tag = randomBytes(4).toString('hex');
    const dirs = { off: `/run/hermes-sbx-${tag}`, on: `/run/user/hermes-sbx-${tag}` };
    try {
      fs.mkdirSync(dirs.on, { recursive: true });
      fs.mkdirSync(dirs.off, { recursive: true });
    } catch {
      t.skip('/run is not writable here (the test needs root to put a service socket there)');
      return;
    }
    const servers = [];
    let connections = 0;
    try {
      for (const dir of Object.values(dirs)) {
        const server = net.createServer((socket) => socket.end('hello from the host\n'));
        server.on('connection', () => connections++);
        await new Promise<void>((resolve) => server.listen(path.join(dir, 's'), resolve));
        servers.push(server);
      }
      const connect = (dir: string): string =>
        `node -e "require('net').connect('${dir}/s').on('data', (d) => { process.stdout.write(d); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(1); })"`;
      // The host can connect (the test's own check that the sockets work).
      assert.match(await terminalTool.handler({ command: connect(dirs.off) }, { ...ctx(), terminal: { ...ctx().terminal, sandbox: undefined } }), /^hello from the host\n/);
      connections = 0;
      assert.match(await run(connect(dirs.off), ctx()), /^ENOENT\n\[exit code: 1\]$/);
      assert.match(await run(connect(dirs.on), ctx()), /^ENOENT\n\[exit code: 1\]$/);
      assert.equal(await run('ls -A /run', ctx()), '(no output)\n[exit code: 0]');
      assert.match(await run(connect(dirs.on), ctx({ network: true })), /^ENOENT\n\[exit code: 1\]$/);
      assert.equal(connections, 0, 'a sandboxed command reached a host socket');
    } finally {
      for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('writes outside the workspace fail (HERMES_HOME, the profile folder, /etc); writes inside land on the host', async () => {
    const tag = randomBytes(4).toString('hex');
    for (const target of [`${h.profile.hermesHome}/injected-${tag}`, `../injected-${tag}`, `/etc/hermes-sbx-${tag}`, `${os.homedir()}/hermes-sbx-${tag}`]) {
      const out = await run(`echo x > ${target}`);
      assert.match(out, /Read-only file system\n\[exit code: 2\]$/, `${target}:\n${out}`);
    }
    assert.equal(fs.existsSync(path.join(h.profile.hermesHome, `injected-${tag}`)), false);
    assert.equal(fs.existsSync(path.join(h.profile.dir, `injected-${tag}`)), false);
    assert.equal(fs.existsSync(`/etc/hermes-sbx-${tag}`), false);
    assert.equal(await run(`mkdir -p sub && echo inside-${tag} > sub/made.txt && cat sub/made.txt`), `inside-${tag}\n[exit code: 0]`);
    assert.equal(fs.readFileSync(path.join(h.profile.workspaceDir, 'sub', 'made.txt'), 'utf8'), `inside-${tag}\n`);
  });

  test('/tmp is private: the host’s /tmp is not seen and what the command writes there stays in the sandbox', async () => {
    const tag = randomBytes(4).toString('hex');
    const hostFile = path.join('/tmp', `hermes-sbx-host-${tag}`);
    fs.writeFileSync(hostFile, 'host\n');
    try {
      assert.match(await run(`cat ${hostFile}`), /No such file or directory\n\[exit code: 1\]$/);
      assert.equal(await run(`echo mine > /tmp/hermes-sbx-inner-${tag} && cat /tmp/hermes-sbx-inner-${tag}`), 'mine\n[exit code: 0]');
      assert.equal(fs.existsSync(`/tmp/hermes-sbx-inner-${tag}`), false);
    } finally {
      fs.rmSync(hostFile, { force: true });
    }
  });

  test('a sandboxed command is killed at its timeout with everything it started; no process is left', async () => {
    const marker = `100.${Date.now() % 1_000_000}`;
    const t0 = Date.now();
    const out = await run(`sleep ${marker}1 & echo started; sleep ${marker}2`, ctx({ timeoutMs: 600 }));
    assert.ok(Date.now() - t0 < 4_000, 'the timeout did not end the command');
    assert.equal(out, 'started\n[timed out after 0.6 s: the command and its child processes were killed]');
    for (const end = Date.now() + 2_000; Date.now() < end && processesWith(marker).length > 0; ) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(processesWith(marker), [], 'a sandboxed process (or bwrap) survived the timeout');
  });

  test('an interrupt kills a sandboxed command; a background child does not outlive a finished one', async () => {
    const marker = `200.${Date.now() % 1_000_000}`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const aborted = await terminalTool.handler({ command: `sleep ${marker}1` }, { ...ctx(), signal: controller.signal });
    assert.equal(aborted, '(no output)\n[interrupted by the user: the command and its child processes were killed]');
    const t0 = Date.now();
    assert.equal(await run(`sleep ${marker}2 & echo done`), 'done\n[exit code: 0]');
    assert.ok(Date.now() - t0 < 2_000, 'waited for the background child');
    for (const end = Date.now() + 2_000; Date.now() < end && processesWith(marker).length > 0; ) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(processesWith(marker), [], 'a sandboxed process survived');
  });

  test('secrets stay out: env, ~/.hermes/.env, $HERMES_HOME/.env, /proc/self/environ and /proc/1/environ show none', async () => {
    const secrets = [modelKey, botToken, gatewaySecret, otherProfileSecret];
    const commands = [
      'env',
      'cat ~/.hermes/.env',
      `cat ${h.profile.hermesHome}/.env ${h.profile.envPath} ${path.join(other, '.env')}`,
      "tr '\\0' '\\n' < /proc/self/environ",
      "tr '\\0' '\\n' < /proc/1/environ",
      'cat /proc/*/environ | tr "\\0" "\\n"',
    ];
    for (const command of commands) {
      const out = await run(command);
      assert.equal(leakedPiece({ text: out, secrets }), undefined, `${command} leaked:\n${out}`);
    }
    const env = await run('env');
    assert.match(env, new RegExp(`^HOME=${h.profile.workspaceDir}$`, 'm'), 'the command did run');
    assert.match(await run("tr '\\0' '\\n' < /proc/1/environ"), /^PATH=/m, '/proc/1 is readable: what it shows is the command env');
    assert.ok(process.env['HERMES_TEST_GATEWAY_SECRET'] === gatewaySecret, 'the gateway process does hold the secret');
  });

  test('a model turn: the terminal call runs sandboxed and the model is told the plain failure', async () => {
    const before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'terminal', arguments: { command: 'cat ../.env' } }] }, { text: 'could not read it' });
    await h.adapter.inject({ text: 'read the env file' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'could not read it');
    const second = h.fake.requests[before + 1];
    assert.ok(second, 'the model was asked again with the tool result');
    const toolMessage = JSON.stringify(second.body).match(/No such file or directory\\n\[exit code: 1\]/);
    assert.ok(toolMessage, JSON.stringify(second.body));
  });
});

describe('an unconfined terminal', () => {
  test('sandbox: none logs one warning line at start saying the terminal runs unconfined and why', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => { lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== '')); done(); } });
    const h = await startHarness({ config: { tools: { terminal: { sandbox: 'none' } } }, logger: pino({ level: 'warn' }, sink) });
    try {
      const warnings = lines.filter((l) => l.includes('unconfined'));
      assert.equal(warnings.length, 1, lines.join('\n'));
      assert.match(warnings[0] ?? '', /the terminal tool runs unconfined \(tools\.terminal\.sandbox is none\)/);
      // Unconfined means today's behaviour: the host's /tmp is the command's /tmp.
      const tag = randomBytes(4).toString('hex');
      h.fake.enqueue({ toolCalls: [{ name: 'terminal', arguments: { command: `echo x > /tmp/hermes-unconfined-${tag}` } }] }, { text: 'ok' });
      await h.adapter.inject({ text: 'go' });
      await h.runner.waitIdle();
      assert.equal(fs.existsSync(`/tmp/hermes-unconfined-${tag}`), true);
      fs.rmSync(`/tmp/hermes-unconfined-${tag}`);
    } finally {
      await h.stop();
    }
  });

  test('the default (auto) where bwrap works logs no warning', { skip }, async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => { lines.push(chunk.toString('utf8')); done(); } });
    const h = await startHarness({ logger: pino({ level: 'warn' }, sink) });
    await h.stop();
    assert.ok(!lines.some((l) => l.includes('unconfined')), lines.join(''));
  });
});
