import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { profileDelete } from '../../../src/cli/profile-delete.js';
import { profileRename } from '../../../src/cli/profile-rename.js';
import { profileShow } from '../../../src/cli/profile-show.js';
import type { SystemdDeps } from '../../../src/cli/systemctl.js';
import { cli } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { captureIO, writeProfile } from './ops-support.js';

let home = '';
let env: Record<string, string> = {};
const dir = (name: string): string => path.join(home, 'profiles', name);
const unitDir = (): string => path.join(home, 'xdg', 'systemd', 'user');

/** Enables hermes-gateway@NAME the way `systemctl enable` does: the template plus a link in default.target.wants. */
function installUnit(name: string): string {
  mkdirSync(path.join(unitDir(), 'default.target.wants'), { recursive: true });
  writeFileSync(path.join(unitDir(), 'hermes-gateway@.service'), '[Service]\n');
  const link = path.join(unitDir(), 'default.target.wants', `hermes-gateway@${name}.service`);
  symlinkSync(path.join(unitDir(), 'hermes-gateway@.service'), link);
  return link;
}

/** systemd deps that answer like a live manager and record each systemctl call ("--user disable ..."). */
function liveSystemd(calls: string[]): SystemdDeps {
  return {
    exec: ({ args }) => {
      calls.push(args.join(' '));
      return { status: 0, stdout: '', stderr: '' };
    },
    booted: () => true,
    systemUnitDir: path.join(home, 'etc-systemd'),
  };
}

/** systemd deps for a host without systemd (containers, CI). */
function noSystemd(): SystemdDeps {
  return { exec: () => ({ status: 1, stdout: '', stderr: 'Failed to connect to bus' }), booted: () => false, systemUnitDir: path.join(home, 'etc-systemd') };
}

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'hermes-ops-'));
  env = { HERMES_HOME: home, HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('profile show', () => {
  test('shows path, description, running gateway with uptime, platforms, model, port, active, service and sizes', async () => {
    writeProfile({ home, name: 'work', config: { model: { name: 'm1', base_url: 'http://127.0.0.1:9/v1' }, gateway: { http: { port: 18_111 } }, platforms: { telegram: { enabled: true, token: 't' } } } });
    writeFileSync(path.join(dir('work'), 'profile.json'), JSON.stringify({ description: 'day job' }));
    writeFileSync(path.join(dir('work'), 'state.db'), Buffer.alloc(2048));
    mkdirSync(path.join(dir('work'), 'logs'));
    writeFileSync(path.join(dir('work'), 'logs', 'gateway.log'), 'x'.repeat(100));
    const clock = new FakeClock();
    writeFileSync(path.join(dir('work'), 'gateway.pid'), `${process.pid}\n`); // a live pid stands in for the gateway
    writeFileSync(path.join(dir('work'), 'gateway.json'), JSON.stringify({ pid: process.pid, startedAt: clock.now() - 125_000, http: { host: '127.0.0.1', port: 18_111 } }));
    writeFileSync(path.join(home, 'active_profile'), 'work\n');
    installUnit('work');
    const { io, stdout } = captureIO({ env });
    assert.equal(await profileShow({ io, name: 'work', clock, systemd: noSystemd() }), 0);
    const text = stdout();
    assert.match(text, /^profile: +work \(active/m);
    assert.match(text, new RegExp(`^path: +${dir('work').replace(/[/.]/g, '\\$&')}$`, 'm'));
    assert.match(text, /^description: +day job$/m);
    assert.match(text, new RegExp(`^gateway: +running \\(pid ${process.pid}, up 2m 5s\\)$`, 'm'));
    assert.match(text, /^platforms: +telegram$/m);
    assert.match(text, /^model: +m1 at http:\/\/127\.0\.0\.1:9\/v1$/m);
    assert.match(text, /^http port: +18111 on 127\.0\.0\.1 \(listening\)$/m);
    assert.match(text, /^service: +hermes-gateway@work\.service installed \(user service/m);
    assert.match(text, /^state\.db: +2\.0 KB$/m);
    assert.match(text, /^logs: +100 B$/m);
  });

  test('a broken config is shown instead of crashing; the rest still prints', async () => {
    writeProfile({ home, name: 'broken', config: 'gateway:\n  busy_policy: sometimes\n' });
    const res = await cli({ argv: ['profile', 'show', 'broken'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^config: +broken: .*gateway\.busy_policy/m);
    assert.match(res.stdout, /^gateway: +stopped$/m);
    assert.match(res.stdout, /^service: +not installed$/m);
    assert.doesNotMatch(res.stdout, /active/);
    const missing = await cli({ argv: ['profile', 'show', 'nope'], env });
    assert.equal(missing.code, 66);
    assert.match(missing.stderr, /profile "nope" does not exist/);
  });
});

describe('profile rename', () => {
  test('moves the folder, follows the sticky default, refuses a running gateway, an existing or reserved name', async () => {
    writeProfile({ home, name: 'work', config: {} });
    writeProfile({ home, name: 'other', config: {} });
    writeFileSync(path.join(home, 'active_profile'), 'work\n');
    writeFileSync(path.join(dir('work'), 'gateway.pid'), `${process.pid}\n`);
    const running = await cli({ argv: ['profile', 'rename', 'work', 'job'], env });
    assert.equal(running.code, 75);
    assert.match(running.stderr, /gateway of profile "work" is running[\s\S]*hermes -p work gateway stop/);
    rmSync(path.join(dir('work'), 'gateway.pid'));
    const taken = await cli({ argv: ['profile', 'rename', 'work', 'other'], env });
    assert.match(taken.stderr, /profile "other" already exists/);
    const reserved = await cli({ argv: ['profile', 'rename', 'work', 'default'], env });
    assert.match(reserved.stderr, /"default" is a reserved name/);
    const invalid = await cli({ argv: ['profile', 'rename', 'work', 'Bad Name'], env });
    assert.match(invalid.stderr, /invalid profile name/);
    assert.ok(existsSync(dir('work')), 'nothing moved by the refusals');

    const res = await cli({ argv: ['profile', 'rename', 'work', 'job'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.ok(!existsSync(dir('work')) && existsSync(path.join(dir('job'), 'config.yaml')));
    assert.equal(readFileSync(path.join(home, 'active_profile'), 'utf8').trim(), 'job');
    assert.match(res.stdout, /commands without -p now use "job"/);
    const defaultRename = await cli({ argv: ['profile', 'rename', 'default', 'x'], env });
    assert.match(defaultRename.stderr, /default profile .* cannot be renamed/);
  });

  test('an installed systemd instance is moved when systemd runs, else the user is told to reinstall', async () => {
    writeProfile({ home, name: 'work', config: {} });
    installUnit('work');
    const calls: string[] = [];
    const a = captureIO({ env });
    assert.equal(profileRename({ io: a.io, from: 'work', to: 'job', systemd: liveSystemd(calls) }), 0);
    assert.deepEqual(calls, ['--user show-environment', '--user disable hermes-gateway@work.service', '--user enable hermes-gateway@job.service']);
    assert.match(a.stdout(), /enabled hermes-gateway@job\.service/);

    installUnit('job'); // what the real `systemctl enable` would have done
    const b = captureIO({ env });
    assert.equal(profileRename({ io: b.io, from: 'job', to: 'work2', systemd: noSystemd() }), 0);
    assert.match(b.stdout(), /hermes-gateway@job\.service was installed; reinstall it for the new name: `hermes -p work2 gateway install`/);
  });
});

describe('profile delete', () => {
  test('asks for the name: a wrong answer or end of input aborts with exit 1 and deletes nothing', async () => {
    writeProfile({ home, name: 'work', config: {} });
    const wrong = await cli({ argv: ['profile', 'delete', 'work'], env, stdin: 'wrok\n' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stdout, /Type the profile name \("work"\) to confirm/);
    assert.match(wrong.stderr, /aborted: the name did not match; nothing was deleted/);
    const eof = await cli({ argv: ['profile', 'delete', 'work'], env, stdin: '' });
    assert.equal(eof.code, 1);
    assert.match(eof.stderr, /aborted: no answer/);
    assert.ok(existsSync(path.join(dir('work'), 'config.yaml')));
    const reserved = await cli({ argv: ['profile', 'delete', 'default', '--yes'], env });
    assert.match(reserved.stderr, /"default" is a reserved name/);
    assert.ok(existsSync(home));
  });

  test('the typed name (or --yes) deletes it; deleting the active profile resets the default', async () => {
    writeProfile({ home, name: 'work', config: {} });
    writeProfile({ home, name: 'spare', config: {} });
    writeFileSync(path.join(home, 'active_profile'), 'work\n');
    const res = await cli({ argv: ['profile', 'delete', 'work'], env, stdin: 'work\n' });
    assert.equal(res.code, 0, res.stderr);
    assert.ok(!existsSync(dir('work')));
    assert.ok(!existsSync(path.join(home, 'active_profile')));
    assert.match(res.stdout, /it was the active profile: commands without -p now use "default"/);
    const yes = await cli({ argv: ['profile', 'delete', 'spare', '--yes'], env });
    assert.equal(yes.code, 0, yes.stderr);
    assert.ok(!existsSync(dir('spare')));
    assert.doesNotMatch(yes.stdout, /Type the profile name/);
  });

  test('removes the systemd instance (disable --now) and the template once no profile uses it', async () => {
    writeProfile({ home, name: 'work', config: {} });
    writeProfile({ home, name: 'home', config: {} });
    const workLink = installUnit('work');
    const homeLink = path.join(unitDir(), 'default.target.wants', 'hermes-gateway@home.service');
    symlinkSync(path.join(unitDir(), 'hermes-gateway@.service'), homeLink);
    const calls: string[] = [];
    const first = captureIO({ env });
    assert.equal(await profileDelete({ io: first.io, name: 'work', yes: true, systemd: liveSystemd(calls) }), 0);
    assert.deepEqual(calls, ['--user show-environment', '--user disable --now hermes-gateway@work.service', '--user daemon-reload']);
    assert.ok(!existsSync(workLink));
    assert.ok(existsSync(path.join(unitDir(), 'hermes-gateway@.service')), 'the template stays while "home" uses it');
    const second = captureIO({ env });
    assert.equal(await profileDelete({ io: second.io, name: 'home', yes: true, systemd: noSystemd() }), 0);
    assert.ok(!existsSync(homeLink) && !existsSync(path.join(unitDir(), 'hermes-gateway@.service')));
    assert.match(second.stdout(), /removed the systemd service hermes-gateway@home\.service/);
  });
});
