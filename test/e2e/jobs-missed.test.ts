import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../helpers/cli.js';
import { until } from '../helpers/gateway-process.js';
import { oneShotJob, startCrashRig } from '../helpers/jobs-crash.js';
import { formatWallTime } from '../../src/util/schedule/zoned-time.js';

test('a one-shot due while the gateway was stopped, past the catch-up window: cron list says missed and why, the chat is told once, nothing runs late', { timeout: 90_000 }, async () => {
  const rig = await startCrashRig({ tmpPrefix: 'hermes-jobs-missed-' });
  const { fake, platform, dbPath, home } = rig;
  fake.setResponder(() => ({ text: 'Your late reminder.' }));
  let proc = rig.spawn();
  try {
    await until({ what: 'the gateway started', timeoutMs: 20_000, output: proc.output, check: () => /gateway running/.test(proc.output()) });
    proc.proc.kill('SIGTERM');
    await proc.exited;
    // The reminder was due two hours ago, while the gateway was stopped: past the default catch-up window (1 h).
    const dueAt = Date.now() - 2 * 3_600_000;
    const job = oneShotJob({ dbPath, atMs: dueAt, name: 'Call the dentist', prompt: 'Remind me to call the dentist.' });
    const startedAt = Date.now();
    proc = rig.spawn();
    await until({ what: 'the chat told about the missed reminder', timeoutMs: 20_000, output: proc.output, check: () => platform.chat('c1').length > 0 });
    const due = formatWallTime({ atMs: dueAt, timeZone: 'UTC' });
    // When the gateway came back: its time, with the date when that is another day than the due date (after midnight).
    const backAt = formatWallTime({ atMs: startedAt, timeZone: 'UTC' });
    const back = `${backAt.slice(0, 10) === due.slice(0, 10) ? '' : `${backAt.slice(0, 10)} `}${backAt.slice(11, 13)}:\\d\\d`;
    const told = platform.chat('c1').map((m) => m.text);
    assert.equal(told.length, 1, told.join('\n'));
    assert.match(told[0] ?? '', new RegExp(`^Missed while offline: "Call the dentist" \\(due ${due}, the gateway was down until ${back}, past the catch-up window of 60 min \\(UTC\\)\\), so it was not run late\\.`));
    assert.equal(fake.requests.length, 0, 'a missed reminder is not run late');

    const env = { HERMES_HOME: home, HOME: home };
    const listed = await cli({ argv: ['-p', 'crash', 'cron', 'list'], env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${job.id} "Call the dentist" \\[missed\\]$`, 'm'));
    assert.match(listed.stdout, new RegExp(`last run: missed, due ${due}, the gateway was down until ${back}, past the catch-up window of 60 min$`, 'm'));
    assert.doesNotMatch(listed.stdout, /\[done\]|last run: never/);
    const history = await cli({ argv: ['-p', 'crash', 'cron', 'history', job.id], env });
    assert.match(history.stdout, new RegExp(`${due} skipped \\(1 missed while the gateway was down until .*, past the catch-up window of 60 min\\); told loopback:c1, message ids ${platform.chat('c1')[0]?.id ?? '?'}`));

    // Told once: the next start tells only about what it finds missed then (a second reminder), not the first again.
    proc.proc.kill('SIGTERM');
    await proc.exited;
    oneShotJob({ dbPath, atMs: dueAt, name: 'Water the plants', prompt: 'Remind me to water the plants.' });
    proc = rig.spawn();
    await until({ what: 'the chat told about the second missed reminder', timeoutMs: 20_000, output: proc.output, check: () => platform.chat('c1').length > 1 });
    const after = platform.chat('c1').map((m) => m.text);
    assert.equal(after.length, 2, after.join('\n'));
    assert.match(after[1] ?? '', /^Missed while offline: "Water the plants"/);
    assert.equal(fake.requests.length, 0);
  } finally {
    await rig.close(proc);
  }
});
