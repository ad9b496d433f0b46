import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GLIBC_TUNABLES, NODE_FLAGS } from '../../../src/cli/node-flags.js';
import { gatewayInstall, gatewayUninstall } from '../../../src/cli/gateway-install.js';
import { gatewayRestart, gatewayServiceStatus, gatewayStart, gatewayStop } from '../../../src/cli/gateway-service.js';
import type { CliIO } from '../../../src/cli/output.js';
import type { ExecResult, SystemdDeps } from '../../../src/cli/systemctl.js';
import { renderUnit } from '../../../src/cli/systemd-unit.js';
import { UserFacingError } from '../../../src/core/errors.js';

const instance = 'hermes-gateway@work.service';

/** A temp HERMES_HOME with profile "work", a fake systemd that records every call, and captured output. */
function setup(params: { booted?: boolean; answer?: (args: readonly string[]) => ExecResult } = {}) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-systemd-'));
  mkdirSync(path.join(home, 'profiles', 'work'), { recursive: true });
  writeFileSync(path.join(home, 'profiles', 'work', 'config.yaml'), 'gateway:\n  drain_timeout: 2s\n');
  const calls: string[][] = [];
  const timeouts: { args: readonly string[]; timeoutMs: number | undefined }[] = [];
  const systemd: SystemdDeps = {
    exec: ({ command, args, timeoutMs }) => {
      calls.push([command, ...args]);
      timeouts.push({ args, timeoutMs });
      return params.answer?.(args) ?? { status: 0, stdout: '', stderr: '' };
    },
    booted: () => params.booted ?? true,
    systemUnitDir: path.join(home, 'etc-systemd-system'),
  };
  let out = '';
  const stdout = new PassThrough();
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  const io: CliIO = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: { HERMES_HOME: home, HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') }, isTTY: false };
  const base = { options: { profile: 'work' }, io, systemd };
  return {
    home,
    calls,
    timeouts,
    base,
    out: () => out,
    userUnit: path.join(home, 'xdg', 'systemd', 'user', 'hermes-gateway@.service'),
    systemUnit: path.join(home, 'etc-systemd-system', 'hermes-gateway@.service'),
    done: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** The error a failing command throws. */
async function failure(run: () => Promise<number>): Promise<UserFacingError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof UserFacingError, String(error));
    return error;
  }
  throw new Error('the command did not fail');
}

describe('rendered units', () => {
  const cliPath = fileURLToPath(import.meta.url);
  const user = renderUnit({ nodePath: process.execPath, hermesHome: '/srv/hermes', drainTimeoutMs: 30_000, cliPath });
  const system = renderUnit({ nodePath: process.execPath, hermesHome: '/srv/hermes', drainTimeoutMs: 30_000, cliPath, system: { user: os.userInfo().username } });
  const lines = (unit: string): string[] => unit.split('\n');

  test('user unit: default.target, no User=, no sandbox that would hide the home folder', () => {
    for (const line of [`ExecStart=${process.execPath} ${NODE_FLAGS.join(' ')} ${cliPath} -p %i gateway run`, 'Environment=HERMES_HOME=/srv/hermes', `Environment=GLIBC_TUNABLES=${GLIBC_TUNABLES}`, 'ExecReload=/bin/kill -HUP $MAINPID', 'TimeoutStopSec=60', 'WantedBy=default.target']) {
      assert.ok(lines(user).includes(line), `missing ${line}`);
    }
    assert.ok(!user.includes('User='));
    assert.ok(!user.includes('ProtectSystem'));
  });

  test('system unit: runs as the given user, multi-user.target, read-only system with only HERMES_HOME writable', () => {
    for (const line of [`User=${os.userInfo().username}`, 'WantedBy=multi-user.target', 'ProtectSystem=strict', 'ProtectHome=read-only', 'ReadWritePaths=/srv/hermes', 'PrivateTmp=yes', 'NoNewPrivileges=yes', 'RestartPreventExitStatus=78']) {
      assert.ok(lines(system).includes(line), `missing ${line}`);
    }
  });

  test('systemd-analyze verify accepts both (when it is installed)', (t) => {
    if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
      t.skip('systemd-analyze is not installed');
      return;
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-verify-'));
    try {
      for (const [name, unit] of [['user', user], ['system', system]] as const) {
        const file = path.join(dir, name, instance);
        mkdirSync(path.dirname(file));
        writeFileSync(file, unit);
        const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
        assert.equal(verify.status, 0, `${name} unit: ${verify.stdout}${verify.stderr}`);
        assert.equal(verify.stderr.trim(), '', `${name} unit warnings: ${verify.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('paths with spaces, quotes, % and $ stay whole: quoted and escaped the way systemd reads them back', (t) => {
  const home = '/home/me/My "Hermes" 100%';
  const cliPath = '/opt/my apps/$HOME/hermes/main.js';
  const unit = renderUnit({ nodePath: process.execPath, hermesHome: home, drainTimeoutMs: 30_000, cliPath, system: { user: 'me' } });
  const lines = unit.split('\n');
  for (const line of [
    'Environment="HERMES_HOME=/home/me/My \\"Hermes\\" 100%%"',
    `ExecStart=${process.execPath} ${NODE_FLAGS.join(' ')} "/opt/my apps/$$HOME/hermes/main.js" -p %i gateway run`,
    'ReadWritePaths="/home/me/My \\"Hermes\\" 100%%"',
  ]) {
    assert.ok(lines.includes(line), `missing ${line} in\n${unit}`);
  }
  if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
    t.skip('systemd-analyze is not installed');
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-verify-quoting-'));
  try {
    const file = path.join(dir, instance);
    writeFileSync(file, unit);
    const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    assert.equal(verify.stderr.trim(), '', `warnings: ${verify.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('gateway install / uninstall / start / stop / restart / status with an injected systemctl', () => {
  test('install --print (user and --system) prints the unit and calls nothing', async () => {
    const s = setup();
    try {
      assert.equal(await gatewayInstall({ ...s.base, system: false, print: true }), 0);
      assert.equal(await gatewayInstall({ ...s.base, system: true, print: true }), 0);
      const [userUnit, systemUnit] = s.out().split('# hermes-gateway: ').slice(1);
      assert.match(userUnit ?? '', /^Environment=HERMES_HOME=.*hermes-systemd-.*$/m);
      assert.match(userUnit ?? '', /^TimeoutStopSec=32$/m);
      assert.match(userUnit ?? '', /^WantedBy=default\.target$/m);
      assert.match(systemUnit ?? '', /^WantedBy=multi-user\.target$/m);
      assert.match(systemUnit ?? '', new RegExp(`^ReadWritePaths=${s.home.replace(/[/.]/g, '\\$&')}$`, 'm'));
      assert.deepEqual(s.calls, []);
    } finally {
      s.done();
    }
  });

  test('install (user): writes the unit, then daemon-reload, enable, start; mentions linger', async () => {
    const s = setup();
    try {
      assert.equal(await gatewayInstall({ ...s.base, system: false, print: false }), 0);
      assert.deepEqual(s.calls, [
        ['systemctl', '--user', 'show-environment'],
        ['systemctl', '--user', 'daemon-reload'],
        ['systemctl', '--user', 'enable', instance],
        ['systemctl', '--user', 'start', instance],
      ]);
      assert.match(readFileSync(s.userUnit, 'utf8'), /^WantedBy=default\.target$/m);
      assert.match(s.out(), /loginctl enable-linger/);
    } finally {
      s.done();
    }
  });

  test('install --system: the system manager (no --user) and a unit in its folder', async () => {
    const s = setup();
    try {
      assert.equal(await gatewayInstall({ ...s.base, system: true, print: false }), 0);
      assert.deepEqual(s.calls, [['systemctl', 'show-environment'], ['systemctl', 'daemon-reload'], ['systemctl', 'enable', instance], ['systemctl', 'start', instance]]);
      assert.match(readFileSync(s.systemUnit, 'utf8'), /^User=/m);
      assert.doesNotMatch(s.out(), /linger/);
    } finally {
      s.done();
    }
  });

  test('a failing systemctl step stops the install and says which command failed', async () => {
    const s = setup({ answer: (args) => (args.includes('enable') ? { status: 1, stdout: '', stderr: 'Failed to enable unit: Access denied' } : { status: 0, stdout: '', stderr: '' }) });
    try {
      const error = await failure(() => gatewayInstall({ ...s.base, system: true, print: false }));
      assert.match(error.message, /systemctl enable hermes-gateway@work\.service failed: Failed to enable unit: Access denied/);
      assert.equal(s.calls.some((c) => c.includes('start')), false);
    } finally {
      s.done();
    }
  });

  test('uninstall: stop, disable, remove the unit, daemon-reload; the unit stays while another profile uses it', async () => {
    const s = setup();
    try {
      await gatewayInstall({ ...s.base, system: false, print: false });
      const wants = path.join(path.dirname(s.userUnit), 'default.target.wants');
      mkdirSync(wants);
      symlinkSync(s.userUnit, path.join(wants, 'hermes-gateway@personal.service'));
      s.calls.length = 0;
      assert.equal(await gatewayUninstall({ ...s.base, system: false }), 0);
      assert.deepEqual(s.calls, [
        ['systemctl', '--user', 'show-environment'],
        ['systemctl', '--user', 'stop', instance],
        ['systemctl', '--user', 'disable', instance],
        ['systemctl', '--user', 'daemon-reload'],
      ]);
      assert.ok(existsSync(s.userUnit), 'the template stays for hermes-gateway@personal');
      rmSync(wants, { recursive: true });
      await gatewayUninstall({ ...s.base, system: false });
      assert.ok(!existsSync(s.userUnit), 'the template is removed with its last instance');
      const again = await failure(() => gatewayUninstall({ ...s.base, system: false }));
      assert.match(again.message, /not installed as a user service/);
    } finally {
      s.done();
    }
  });

  test('start / restart / stop / status call systemctl for the installed instance', async () => {
    const s = setup({ answer: (args) => (args[1] === 'status' ? { status: 3, stdout: '○ hermes-gateway@work.service - inactive (dead)', stderr: '' } : { status: 0, stdout: '', stderr: '' }) });
    try {
      await gatewayInstall({ ...s.base, system: false, print: false });
      s.calls.length = 0;
      assert.equal(await gatewayStart({ ...s.base, system: false }), 0);
      assert.equal(await gatewayRestart({ ...s.base, system: false }), 0);
      assert.equal(await gatewayStop({ ...s.base, system: false }), 0);
      assert.equal(await gatewayServiceStatus({ ...s.base, system: false }), 3);
      const actions = s.calls.filter((c) => c[2] !== 'show-environment').map((c) => c.slice(2).join(' '));
      assert.deepEqual(actions, [`start ${instance}`, `restart ${instance}`, `stop ${instance}`, `status --no-pager ${instance}`]);
      // systemctl stop/restart block until the gateway has drained (TimeoutStopSec = drain + 30 s): they get that long.
      assert.deepEqual(s.timeouts.filter((t) => t.args[1] === 'stop' || t.args[1] === 'restart').map((t) => t.timeoutMs), [2_000 + 45_000, 2_000 + 45_000]);
      assert.match(s.out(), /inactive \(dead\)/);
    } finally {
      s.done();
    }
  });

  test('not installed: start explains both ways to run it; stop SIGTERMs a foreground gateway and waits for it', async () => {
    const s = setup();
    try {
      const error = await failure(() => gatewayStart({ ...s.base, system: false }));
      assert.match(error.message, /not installed as a user service: run `hermes -p work gateway install` or `hermes -p work gateway run`/);
      const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => setTimeout(() => process.exit(0), 200)); setInterval(() => {}, 1000); console.log('ready')"], { stdio: ['ignore', 'pipe', 'ignore'] });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // Its SIGTERM handler is in place once it says so (a fixed wait lost the race on a loaded machine).
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      writeFileSync(path.join(s.home, 'profiles', 'work', 'gateway.pid'), `${child.pid}\n`);
      assert.equal(await gatewayStop({ ...s.base, system: false }), 0);
      assert.equal(child.exitCode, 0, 'stop returned only after the gateway had exited');
      assert.equal(await exited, 0);
      assert.match(s.out(), new RegExp(`stopped \\(pid ${child.pid}\\)`));
      assert.equal(await gatewayServiceStatus({ ...s.base, system: false }), 3);
      assert.match(s.out(), /the gateway for profile "work" is not running/);
    } finally {
      s.done();
    }
  });

  test('without systemd every command says so; install shows the unit it would install', async () => {
    const s = setup({ booted: false });
    try {
      const install = await failure(() => gatewayInstall({ ...s.base, system: false, print: false }));
      assert.equal(install.exitCode, 69);
      assert.match(install.message, /systemd is not running on this machine .*the unit above was not installed/);
      assert.match(s.out(), /^ExecStart=.* -p %i gateway run$/m);
      for (const command of [gatewayStart, gatewayRestart]) {
        assert.match((await failure(() => command({ ...s.base, system: false }))).message, /systemd is not running on this machine/);
      }
      assert.match((await failure(() => gatewayUninstall({ ...s.base, system: true }))).message, /systemd is not running on this machine .*, so there is no service to uninstall/);
      assert.equal(await gatewayStop({ ...s.base, system: false }), 0);
      assert.match(s.out(), /not running \(systemd is not running on this machine/);
      assert.deepEqual(s.calls, [], 'systemctl is not even tried');
    } finally {
      s.done();
    }
  });

  test('a user manager that does not answer (no session bus) is reported as such', async () => {
    const s = setup({ answer: () => ({ status: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' }) });
    try {
      const error = await failure(() => gatewayInstall({ ...s.base, system: false, print: false }));
      assert.match(error.message, /your systemd user session does not answer \(systemctl --user show-environment: Failed to connect to bus: No medium found\)/);
    } finally {
      s.done();
    }
  });
});
