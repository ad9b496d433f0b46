import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { envFileCheck, folderChecks } from '../../../src/doctor/files.js';
import { gatewayRunningCheck, portCheck } from '../../../src/doctor/gateway.js';
import { nodeVersionCheck, sqliteCheck } from '../../../src/doctor/runtime.js';
import { withTimeout } from '../../../src/util/timeout.js';
import { formatCheckLine } from '../../../src/core/check-line.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { configOf } from './support.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-checks-'));
after(() => rmSync(home, { recursive: true, force: true }));

test('node: 20+ passes, 18 fails with how to upgrade', () => {
  assert.equal(nodeVersionCheck({ version: '20.11.0' }).status, 'ok');
  const old = nodeVersionCheck({ version: 'v18.19.0' });
  assert.equal(old.status, 'fail');
  assert.match(formatCheckLine({ check: old }), /^✗ node: v18\.19\.0 is too old .*\n {4}fix: Install Node 20\+/);
});

test('sqlite: the native module loads with FTS5', async () => {
  const check = await sqliteCheck();
  assert.equal(check.status, 'ok', check.detail);
  assert.match(check.detail, /FTS5/);
});

test('folders: missing, group-writable and private; .env: missing is fine, 0640 is a ✗ with chmod 600', () => {
  const profile = resolveProfile({ hermesHome: home, name: 'work' });
  const missing = folderChecks({ profile });
  assert.deepEqual(missing.map((c) => c.status), ['ok', 'fail']);
  assert.match(missing[1]?.fix ?? '', /hermes profile create work/);
  mkdirSync(profile.dir, { recursive: true });
  chmodSync(profile.dir, 0o775);
  const open = folderChecks({ profile })[1];
  assert.equal(open?.status, 'fail');
  assert.match(open?.detail ?? '', /writable by group\/others \(mode 0775\)/);
  assert.equal(open?.fix, `chmod go-w ${profile.dir} (or chmod 700 ${profile.dir})`);
  chmodSync(profile.dir, 0o700);
  assert.equal(folderChecks({ profile })[1]?.status, 'ok');
  assert.equal(envFileCheck({ profile }).status, 'ok');
  writeFileSync(profile.envPath, 'A=1\n', { mode: 0o640 });
  chmodSync(profile.envPath, 0o640);
  const env = envFileCheck({ profile });
  assert.deepEqual([env.status, env.fix], ['fail', `chmod 600 ${profile.envPath}`]);
});

test('gateway: a stale pid file is noted; port: free, taken by another program, or disabled', async () => {
  const profile = resolveProfile({ hermesHome: home, name: 'gw' });
  mkdirSync(profile.dir, { recursive: true });
  writeFileSync(profile.pidPath, '999999999\n');
  const stale = gatewayRunningCheck({ profile, clock: new FakeClock() });
  assert.equal(stale.status, 'warn');
  assert.match(stale.detail, /names pid 999999999, which is gone/);

  const net = await import('node:net');
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const address = holder.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  try {
    const taken = await portCheck({ profile, config: configOf({ gateway: { http: { port } } }) });
    assert.equal(taken.status, 'fail');
    assert.match(taken.detail, new RegExp(`127\\.0\\.0\\.1:${port} is taken by another program`));
  } finally {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
  }
  assert.equal((await portCheck({ profile, config: configOf({ gateway: { http: { port } } }) })).status, 'ok');
  assert.equal((await portCheck({ profile, config: configOf({ gateway: { http: { enabled: false } } }) })).detail, 'HTTP server disabled (gateway.http.enabled: false)');
});

test('withTimeout aborts the signal after the limit on the clock, and leaves no timer behind when the work finishes first', async () => {
  const clock = new FakeClock();
  const quick = await withTimeout({ clock, ms: 1_000, run: async () => 'done' });
  assert.equal(quick, 'done');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(clock.pending, 0, 'the timer was cancelled');
  const slow = withTimeout({ clock, ms: 1_000, run: (signal) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve(String(signal.reason)))) });
  await clock.advance(999);
  await clock.advance(1);
  assert.equal(await slow, 'CheckTimeoutError: no answer within 1s');
});
