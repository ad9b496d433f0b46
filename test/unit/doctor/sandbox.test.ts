import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxCheck } from '../../../src/doctor/sandbox.js';
import { resolveProfile } from '../../../src/home/profile.js';
import type { ProbeResult } from '../../../src/tools/sandbox/probe.js';
import { configOf } from './support.js';

const profile = resolveProfile({ hermesHome: '/tmp/hermes-doctor-sandbox', name: 'p' });
const working = (): ProbeResult => ({ ok: true, bwrap: '/usr/bin/bwrap' });
const failing = (): ProbeResult => ({ ok: false, reason: 'bwrap cannot create its namespaces here (No permissions to create a new namespace; user namespaces may be disabled)' });

test('terminal sandbox: ✓ bwrap with its network setting where bwrap works', () => {
  assert.deepEqual(sandboxCheck({ config: configOf({}), profile, probe: working }), { status: 'ok', name: 'terminal sandbox', detail: 'bwrap (network off)' });
  const on = sandboxCheck({ config: configOf({ tools: { terminal: { network: true } } }), profile, probe: working });
  assert.equal(on.detail, 'bwrap (network on)');
});

test('terminal sandbox: auto without a working bwrap is a ! saying why and that the terminal runs unconfined', () => {
  const check = sandboxCheck({ config: configOf({}), profile, probe: failing });
  assert.equal(check.status, 'warn');
  assert.equal(check.detail, 'none: bwrap cannot create its namespaces here (No permissions to create a new namespace; user namespaces may be disabled); the terminal runs unconfined');
  assert.match(check.fix ?? '', /apt-get install bubblewrap/);
});

test('terminal sandbox: none is a ! naming the setting; bwrap required but not working is a ✗', () => {
  const none = sandboxCheck({ config: configOf({ tools: { terminal: { sandbox: 'none' } } }), profile, probe: () => assert.fail('probed') });
  assert.equal(none.status, 'warn');
  assert.equal(none.detail, 'none: tools.terminal.sandbox is none; the terminal runs unconfined');
  const required = sandboxCheck({ config: configOf({ tools: { terminal: { sandbox: 'bwrap' } } }), profile, probe: failing });
  assert.equal(required.status, 'fail');
  assert.match(required.detail, /does not work here: bwrap cannot create its namespaces/);
});

test('terminal sandbox: a workspace in HERMES_HOME outside the profile’s workspace/ (the profile folder, HERMES_HOME itself) is a ✗: its files would be in reach', () => {
  const withWorkspace = (workspace: string): ReturnType<typeof configOf> => ({ ...configOf({}), tools: { ...configOf({}).tools, workspace } });
  for (const workspace of [profile.dir, profile.hermesHome, `${profile.hermesHome}/profiles`]) {
    const check = sandboxCheck({ config: withWorkspace(workspace), profile, probe: working });
    assert.equal(check.status, 'fail', workspace);
    assert.match(check.detail, /cannot hide the profile's files: tools\.workspace .* lies in HERMES_HOME/);
    assert.match(check.fix ?? '', /Set tools\.workspace to a folder outside HERMES_HOME/);
  }
  for (const workspace of [profile.workspaceDir, `${profile.workspaceDir}/project`, '/srv/work', '/tmp']) {
    assert.equal(sandboxCheck({ config: withWorkspace(workspace), profile, probe: working }).status, 'ok', workspace);
  }
  // Unconfined anyway: nothing to hide, so no ✗ (sandbox: none keeps its own warning).
  assert.equal(sandboxCheck({ config: { ...withWorkspace(profile.dir), tools: { ...withWorkspace(profile.dir).tools, terminal: { ...configOf({}).tools.terminal, sandbox: 'none' } } }, profile }).status, 'warn');
});
