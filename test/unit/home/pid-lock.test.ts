import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { acquirePidLock, processStartTicks, runningPid } from '../../../src/home/pid-lock.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { gatewayPid } from '../../../src/home/stop-gateway.js';

const hasProc = existsSync(`/proc/${process.pid}/stat`);

describe('pid lock: a pid reused by another process is not a running gateway', { skip: hasProc ? false : 'needs /proc' }, () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-pidlock-'));
  const profile = resolveProfile({ hermesHome: home, name: 'work' });
  let stranger: ChildProcess;
  before(() => {
    mkdirSync(profile.dir, { recursive: true });
    stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  });
  after(() => {
    stranger.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  });

  test('the lock records its start; a pid file whose start differs (a crashed gateway, its pid reused) is taken over', () => {
    const pid = stranger.pid ?? 0;
    const start = processStartTicks({ pid });
    assert.ok(start !== undefined && /^\d+$/.test(start));
    writeFileSync(profile.pidPath, `${pid}\nstart ${start}\n`);
    assert.equal(runningPid({ profile }), pid, 'the recorded process itself still counts as running');
    assert.throws(() => acquirePidLock({ profile }), /already running \(pid \d+\)/);

    writeFileSync(profile.pidPath, `${pid}\nstart ${BigInt(start) + 1n}\n`);
    writeFileSync(path.join(profile.dir, 'gateway.json'), JSON.stringify({ pid, startedAt: 0, http: null }));
    assert.equal(runningPid({ profile }), null, 'another process now has that pid');
    assert.equal(gatewayPid({ profile }), null, 'gateway.json does not bring the stranger back (nothing would SIGTERM it)');
    const lock = acquirePidLock({ profile });
    assert.deepEqual(readFileSync(profile.pidPath, 'utf8').split('\n').slice(0, 2), [String(process.pid), `start ${processStartTicks({ pid: process.pid }) ?? ''}`]);
    assert.equal(runningPid({ profile }), process.pid);
    lock.release();
    assert.equal(existsSync(profile.pidPath), false);
  });
});

describe('pid lock on a full disk', () => {
  test('the disk refusing the pid file is no reason not to start: the file is kept, filled in by retryWrite, removed on release', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-pidfull-'));
    try {
      const profile = resolveProfile({ hermesHome: home, name: 'work' });
      mkdirSync(profile.dir, { recursive: true });
      const enospc = (): never => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      };
      const lock = acquirePidLock({ profile, write: enospc });
      assert.equal(lock.written, false);
      assert.equal(readFileSync(profile.pidPath, 'utf8'), '', 'the empty file still holds the name');
      assert.equal(lock.retryWrite(), true);
      assert.equal(lock.written, true);
      assert.equal(runningPid({ profile }), process.pid);
      lock.release();
      assert.equal(existsSync(profile.pidPath), false);

      const unwritten = acquirePidLock({ profile, write: enospc });
      unwritten.release();
      assert.equal(existsSync(profile.pidPath), false, 'an empty pid file of ours goes too');

      assert.throws(() => acquirePidLock({ profile, write: () => { throw Object.assign(new Error('EBADF'), { code: 'EBADF' }); } }), /EBADF/);
      assert.equal(existsSync(profile.pidPath), false, 'other failures still fail the start, leaving nothing behind');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
