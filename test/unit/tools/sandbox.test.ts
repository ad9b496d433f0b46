import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { bwrapArgs } from '../../../src/tools/sandbox/bwrap-args.js';
import { describeSandbox, resolveSandbox } from '../../../src/tools/sandbox/mode.js';
import { runBwrapProbe, type ProbeResult } from '../../../src/tools/sandbox/probe.js';
import pino from 'pino';
import { socketDirsToHide, warnIfUnconfined } from '../../../src/tools/sandbox/terminal-sandbox.js';
import { makeSandbox } from './support.js';

/** The mount options of an argv in order, as "tmpfs PATH" / "bind PATH" (ro-bind of / and dev/proc left out). */
function mounts(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--tmpfs') out.push(`tmpfs ${args[i + 1]}`);
    if (args[i] === '--bind') {
      assert.equal(args[i + 1], args[i + 2], 'the workspace is bound at its own path');
      out.push(`bind ${args[i + 1]}`);
    }
  }
  return out;
}

const settings = { bwrap: '/usr/bin/bwrap', network: false };

describe('bwrapArgs', () => {
  test('HERMES_HOME under /tmp with the workspace inside it: private /tmp, then HERMES_HOME hidden, then the workspace bound back', () => {
    const args = bwrapArgs({ settings: { ...settings, hide: ['/tmp/h1'] }, workspace: '/tmp/h1/profiles/p/workspace', script: 'ls' });
    assert.deepEqual(mounts(args), ['tmpfs /tmp', 'tmpfs /tmp/h1', 'bind /tmp/h1/profiles/p/workspace']);
    assert.deepEqual(args.slice(-7), ['--remount-ro', '/tmp/h1', '--chdir', '/tmp/h1/profiles/p/workspace', '/bin/sh', '-c', 'ls']);
    assert.equal(args.filter((a) => a === '--remount-ro').length, 1, 'only the hidden folder is made read-only, not the private /tmp');
  });

  test('a workspace configured outside HERMES_HOME: HERMES_HOME is still hidden, the workspace bound after /tmp', () => {
    const args = bwrapArgs({ settings: { ...settings, hide: ['/tmp/h2/home'] }, workspace: '/tmp/ws', script: 'ls' });
    assert.deepEqual(mounts(args), ['tmpfs /tmp', 'bind /tmp/ws', 'tmpfs /tmp/h2/home']);
    const outside = bwrapArgs({ settings: { ...settings, hide: ['/root/.hermes'] }, workspace: '/srv/project', script: 'ls' });
    assert.deepEqual(mounts(outside), ['tmpfs /tmp', 'bind /srv/project', 'tmpfs /root/.hermes']);
  });

  test('a workspace that contains HERMES_HOME: the workspace is bound first, HERMES_HOME hidden inside it', () => {
    const args = bwrapArgs({ settings: { ...settings, hide: ['/root/.hermes'] }, workspace: '/root', script: 'ls' });
    assert.deepEqual(mounts(args), ['tmpfs /tmp', 'bind /root', 'tmpfs /root/.hermes']);
    const same = bwrapArgs({ settings: { ...settings, hide: ['/srv/h'] }, workspace: '/srv/h', script: 'ls' });
    assert.deepEqual(mounts(same), ['tmpfs /tmp', 'bind /srv/h', 'tmpfs /srv/h'], 'the workspace being HERMES_HOME itself still hides it');
  });

  test('the system read-only, own /dev and /proc, new pid/ipc/uts namespaces, no network unless asked', () => {
    const off = bwrapArgs({ settings: { ...settings, hide: [] }, workspace: '/w', script: 'true' });
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net']) assert.ok(off.includes(flag), flag);
    assert.ok(!off.includes('--share-net'));
    assert.deepEqual(off.slice(off.indexOf('--ro-bind'), off.indexOf('--ro-bind') + 3), ['--ro-bind', '/', '/']);
    assert.ok(off.indexOf('--ro-bind') < off.indexOf('--bind'), 'the workspace bind comes after the read-only root');
    assert.deepEqual(off.slice(off.indexOf('--dev'), off.indexOf('--dev') + 4), ['--dev', '/dev', '--proc', '/proc']);
    const on = bwrapArgs({ settings: { ...settings, network: true, hide: [] }, workspace: '/w', script: 'true' });
    assert.ok(on.includes('--share-net') && !on.includes('--unshare-net'));
  });
});

describe('resolveSandbox', () => {
  const failing = (): ProbeResult => ({ ok: false, reason: 'bwrap cannot create its namespaces here (No permissions)' });
  const working = (): ProbeResult => ({ ok: true, bwrap: '/usr/bin/bwrap' });

  test('auto with a failing probe runs unconfined and says why', () => {
    const resolution = resolveSandbox({ mode: 'auto', network: false, hide: ['/tmp/h'], probe: failing });
    assert.equal(resolution.spec, undefined);
    assert.equal(resolution.unconfinedReason, 'bwrap cannot create its namespaces here (No permissions)');
    assert.equal(describeSandbox({ resolution }), 'none: bwrap cannot create its namespaces here (No permissions); the terminal runs unconfined');
  });

  test('bwrap with a failing probe: unavailable, with the reason and what to do', () => {
    const { spec } = resolveSandbox({ mode: 'bwrap', network: false, hide: ['/tmp/h'], probe: failing });
    assert.equal(spec?.kind, 'unavailable');
    assert.ok(spec?.kind === 'unavailable');
    assert.match(spec.reason, /tools\.terminal\.sandbox: bwrap\) does not work here: bwrap cannot create its namespaces here \(No permissions\)/);
    assert.match(spec.reason, /apt-get install bubblewrap/);
    assert.match(spec.reason, /user namespaces/);
    assert.match(spec.reason, /tools\.terminal\.sandbox: none/);
  });

  test('auto and bwrap with a working probe: bwrap, HERMES_HOME hidden at its real path', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-sbx-'));
    try {
      const real = path.join(root, 'real');
      fs.mkdirSync(real);
      fs.symlinkSync(real, path.join(root, 'link'));
      for (const mode of ['auto', 'bwrap'] as const) {
        const resolution = resolveSandbox({ mode, network: true, hide: [path.join(root, 'link')], probe: working });
        assert.deepEqual(resolution.spec, { kind: 'bwrap', bwrap: '/usr/bin/bwrap', hide: [fs.realpathSync(real)], network: true });
        assert.equal(describeSandbox({ resolution }), 'bwrap (network on)');
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('none never probes and says so', () => {
    const resolution = resolveSandbox({ mode: 'none', network: false, hide: [], probe: () => assert.fail('probed') });
    assert.equal(resolution.spec, undefined);
    assert.equal(describeSandbox({ resolution }), 'none: tools.terminal.sandbox is none; the terminal runs unconfined');
  });

  test('a missing bwrap binary is a reason, not a crash', () => {
    assert.deepEqual(runBwrapProbe({ name: 'bwrap-not-here', searchPath: '/nonexistent' }), { ok: false, reason: 'bubblewrap (bwrap) is not installed' });
  });

  test('the terminal tool with an unavailable sandbox runs nothing and tells the model why', async () => {
    const box = makeSandbox();
    try {
      const { spec } = resolveSandbox({ mode: 'bwrap', network: false, hide: [], probe: failing });
      box.ctx.terminal = { ...box.ctx.terminal, sandbox: spec };
      const result = await box.call('terminal', { command: 'touch ran' });
      assert.equal(result.isError, true);
      assert.match(result.content, /does not work here: bwrap cannot create its namespaces/);
      assert.equal(fs.existsSync(path.join(box.workspace, 'ran')), false, 'the command ran unconfined');
    } finally {
      box.cleanup();
    }
  });
});

describe('socketDirsToHide', () => {
  test('without the network all of /run (and /var/run) is hidden; with it /run/user; only folders that exist', () => {
    const all = (): boolean => true;
    assert.deepEqual(socketDirsToHide({ network: false, exists: all }), ['/run', '/var/run']);
    assert.deepEqual(socketDirsToHide({ network: true, exists: all }), ['/run/user']);
    assert.deepEqual(socketDirsToHide({ network: true, exists: (dir) => dir !== '/run/user' }), []);
  });

  test('a folder reached twice (/var/run → /run) is hidden once', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-sbx-'));
    try {
      fs.mkdirSync(path.join(root, 'run'));
      fs.symlinkSync(path.join(root, 'run'), path.join(root, 'var-run'));
      const resolution = resolveSandbox({ mode: 'bwrap', network: false, hide: [path.join(root, 'run'), path.join(root, 'var-run')], probe: () => ({ ok: true, bwrap: '/usr/bin/bwrap' }) });
      assert.deepEqual(resolution.spec?.kind === 'bwrap' ? resolution.spec.hide : undefined, [fs.realpathSync(path.join(root, 'run'))]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('warnIfUnconfined', () => {
  test('one warning at start for an unconfined terminal and for one that runs nothing (sandbox required but unavailable); none when confined', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    warnIfUnconfined({ resolution: { spec: { kind: 'unavailable', reason: 'bwrap does not work here' } }, logger });
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /the terminal tool runs no command: bwrap does not work here/);
    warnIfUnconfined({ resolution: { spec: undefined, unconfinedReason: 'tools.terminal.sandbox is none' }, logger });
    assert.equal(lines.length, 2);
    assert.match(lines[1] ?? '', /runs unconfined \(tools\.terminal\.sandbox is none\)/);
    warnIfUnconfined({ resolution: { spec: { kind: 'bwrap', bwrap: '/usr/bin/bwrap', hide: [], network: false } }, logger });
    assert.equal(lines.length, 2);
  });
});
