import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { makeSandbox, type Sandbox } from './support.js';

/** True while a process with this pid exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until the process is gone or `ms` passed; returns whether it is still alive. */
async function stillAliveAfter(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (!alive(pid)) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return alive(pid);
}

describe('terminal', () => {
  let box: Sandbox | undefined;
  afterEach(() => {
    box?.cleanup();
    box = undefined;
  });

  test('runs in the workspace, interleaves stdout and stderr, reports the exit code', async () => {
    box = makeSandbox();
    const ok = await box.call('terminal', { command: 'pwd; echo out; echo err >&2; echo out2' });
    assert.deepEqual(ok, { content: `${box.workspace}\nout\nerr\nout2\n[exit code: 0]`, isError: false });
    const failed = await box.call('terminal', { command: 'echo nope; exit 3' });
    assert.equal(failed.content, 'nope\n[exit code: 3]');
    const silent = await box.call('terminal', { command: 'true' });
    assert.equal(silent.content, '(no output)\n[exit code: 0]');
  });

  test('the command sees a minimal environment, not the gateway’s secrets', async () => {
    box = makeSandbox();
    const canary = 'canary-secret-8d1f3e';
    process.env['HERMES_TEST_CANARY_TOKEN'] = canary;
    try {
      const result = await box.call('terminal', { command: 'env' });
      assert.ok(!result.content.includes(canary), 'the canary secret leaked into the command environment');
      assert.match(result.content, new RegExp(`^HOME=${box.workspace}$`, 'm'));
      assert.match(result.content, /^PATH=/m);
      assert.match(result.content, /^LANG=C\.UTF-8$/m);
      const names = result.content.split('\n').filter((l) => l.includes('=')).map((l) => l.split('=')[0]);
      const unexpected = names.filter((n) => !['PATH', 'HOME', 'LANG', 'TERM', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(n ?? ''));
      assert.deepEqual(unexpected, []);
    } finally {
      delete process.env['HERMES_TEST_CANARY_TOKEN'];
    }
  });

  test('a timeout kills the whole process group and says so', async () => {
    box = makeSandbox({ terminal: { timeoutMs: 5_000, maxOutputBytes: 10_000 } });
    const t0 = Date.now();
    const result = await box.call('terminal', { command: 'sleep 30 & echo $! > bg.pid; echo started; sleep 30', timeout: 0.4 });
    assert.ok(Date.now() - t0 < 3_000, 'the timeout did not end the command');
    assert.equal(result.content, 'started\n[timed out after 0.4 s: the command and its child processes were killed]');
    const bgPid = Number(fs.readFileSync(path.join(box.workspace, 'bg.pid'), 'utf8'));
    assert.ok(bgPid > 0 && Number.isInteger(bgPid));
    assert.equal(await stillAliveAfter(bgPid, 1_000), false, 'the background child survived the timeout');
  });

  test('the timeout argument cannot exceed the configured limit', async () => {
    box = makeSandbox({ terminal: { timeoutMs: 300, maxOutputBytes: 10_000 } });
    const result = await box.call('terminal', { command: 'sleep 10', timeout: 600 });
    assert.match(result.content, /timed out after 0\.3 s/);
  });

  test('output beyond maxOutputBytes is cut in the middle with a note', async () => {
    box = makeSandbox({ terminal: { timeoutMs: 5_000, maxOutputBytes: 100 } });
    const result = await box.call('terminal', { command: 'echo BEGIN; i=0; while [ $i -lt 500 ]; do echo line$i; i=$((i+1)); done; echo END' });
    assert.match(result.content, /^BEGIN\n/);
    assert.match(result.content, /\[output truncated: \d+ of \d+ bytes omitted; showing the first 50 and last 50 bytes\]/);
    assert.match(result.content, /END\n\[exit code: 0\]$/);
    assert.ok(result.content.length < 400);
  });

  test('an abort kills the running command', async () => {
    box = makeSandbox();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const t0 = Date.now();
    const result = await box.call('terminal', { command: 'sleep 30' }, controller.signal);
    assert.ok(Date.now() - t0 < 3_000);
    assert.match(result.content, /interrupted by the user/);
  });

  test('a background child holding the pipes open does not stall a finished command', async () => {
    box = makeSandbox();
    const t0 = Date.now();
    const result = await box.call('terminal', { command: 'sleep 3 & echo done' });
    assert.ok(Date.now() - t0 < 2_000, 'waited for the background child');
    assert.equal(result.content, 'done\n[exit code: 0]');
  });
});
