import assert from 'node:assert/strict';
import { test } from 'node:test';
import { until } from '../helpers/gateway-process.js';
import { oneShotJob, startCrashRig, waitDelivered, withStoreAt } from '../helpers/jobs-crash.js';

test('kill -9 one second before the due time, restart two minutes after it: delivered exactly once (catch-up)', { timeout: 60_000 }, async () => {
  const rig = await startCrashRig({ tmpPrefix: 'hermes-jobs-crash-' });
  const { fake, platform, dbPath } = rig;
  fake.setResponder(() => ({ text: 'Your reminder.' }));
  let proc = rig.spawn();
  try {
    await until({ what: 'the gateway started', timeoutMs: 20_000, output: proc.output, check: () => /gateway running/.test(proc.output()) });
    const dueAt = Date.now() + 3000;
    const job = oneShotJob({ dbPath, atMs: dueAt, prompt: 'Remind me.' });
    await new Promise((r) => setTimeout(r, dueAt - 1000 - Date.now()));
    proc.proc.kill('SIGKILL');
    await proc.exited;
    assert.equal(fake.requests.length, 0, 'killed before the due time');
    // Two minutes of downtime: the due time is now two minutes in the past.
    const passed = Date.now() - 2 * 60_000;
    withStoreAt(dbPath, (store) => store.updateJob({ jobId: job.id, changes: { schedule: { kind: 'once', atMs: passed }, nextRunAt: passed } }));
    proc = rig.spawn();
    await waitDelivered({ proc, dbPath, jobId: job.id, what: 'the reminder delivered', timeoutMs: 20_000 });
    const shown = platform.chat('c1');
    assert.deepEqual(shown.map((m) => m.text), ['Your reminder.']);
    assert.equal(fake.requests.length, 1);
    const runs = withStoreAt(dbPath, (s) => s.runsOf({ jobId: job.id, limit: 5 }));
    assert.equal(runs.length, 1);
    assert.deepEqual(runs[0]?.deliveries[0]?.messageIds, [shown[0]?.id]);
  } finally {
    await rig.close(proc);
  }
});

test('kill -9 while the job’s turn runs: after restart the same run finishes in place, delivered once, never claimed twice', { timeout: 60_000 }, async () => {
  const rig = await startCrashRig({ tmpPrefix: 'hermes-jobs-crash-' });
  const { fake, platform, dbPath } = rig;
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
  const full = words.join(' ');
  // The first attempt streams slowly (and is killed); the replay answers at once.
  fake.enqueue({ chunks: words.map((w, i) => (i ? ` ${w}` : w)), chunkDelayMs: 100 }, { text: full });
  let proc = rig.spawn();
  try {
    await until({ what: 'the gateway started', timeoutMs: 20_000, output: proc.output, check: () => /gateway running/.test(proc.output()) });
    const job = oneShotJob({ dbPath, atMs: Date.now() - 1000, prompt: 'Count.' });
    // The running scheduler sees it within its longest sleep; a restart would too, so restart to pick it up now.
    proc.proc.kill('SIGTERM');
    await proc.exited;
    proc = rig.spawn();
    await until({ what: 'the job’s model call', timeoutMs: 20_000, output: proc.output, check: () => fake.requests.length === 1 });
    await new Promise((r) => setTimeout(r, 300));
    proc.proc.kill('SIGKILL');
    await proc.exited;
    assert.equal(platform.chat('c1').length, 0, 'a job’s answer is sent once complete');
    assert.equal(withStoreAt(dbPath, (s) => s.openRuns().length), 1, 'the run was left open');
    proc = rig.spawn();
    await waitDelivered({ proc, dbPath, jobId: job.id, what: 'the run delivered', timeoutMs: 20_000 });
    const shown = platform.chat('c1');
    assert.deepEqual(shown.map((m) => m.text), [full]);
    assert.equal(fake.requests.length, 2, 'the replayed turn asked once more, nothing else did');
    const runs = withStoreAt(dbPath, (s) => s.runsOf({ jobId: job.id, limit: 5 }));
    assert.equal(runs.length, 1, 'one run for the scheduled time');
    assert.equal(runs[0]?.attempts, 1);
    assert.deepEqual(runs[0]?.deliveries[0]?.messageIds, [shown[0]?.id]);
  } finally {
    await rig.close(proc);
  }
});
