import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Store } from '../../../src/store/types.js';
import { cli, withProfileStore } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-cron-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

/** Runs `use` on a profile's own state.db (made with a config naming its time zone), as its gateway would. */
function withStore<T>(profile: string, use: (store: Store) => T): T {
  return withProfileStore({ home, profile, config: 'timezone: Europe/Berlin\n' }, use);
}

/** A message from telegram chat `chatId` in the profile's inbox: a chat it talks with. */
function talkedWith(store: Store, chatId: string): void {
  store.recordInbound({
    event: { platform: 'telegram', messageId: `m-${chatId}`, chat: { id: chatId, kind: 'dm' }, sender: { id: 'u1', isBot: false }, text: 'hi', media: [], mentioned: true, receivedAt: Date.now() },
    sessionKey: `work:telegram:${chatId}`,
  });
}

test('hermes cron add/list/edit/pause/resume/run/history/remove act on the -p profile only; targets are checked; status shows the next job', async () => {
  withStore('work', (s) => talkedWith(s, '42'));
  withStore('default', () => undefined);
  const base = ['-p', 'work', 'cron'];

  const refused = await cli({ argv: [...base, 'add', '--prompt', 'Report disk usage.', '--schedule', 'every 2h', '--deliver', 'telegram:999'], env });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^error: "telegram:999" is not a chat this profile talks with \(valid targets: telegram:42\)/);
  const noTarget = await cli({ argv: [...base, 'add', '--prompt', 'Report disk usage.', '--schedule', 'every 2h'], env });
  assert.equal(noTarget.code, 1);
  assert.match(noTarget.stderr, /no chat to deliver "origin" to here/);
  const badSchedule = await cli({ argv: [...base, 'add', '--prompt', 'x', '--schedule', 'every 5s', '--deliver', 'telegram:42'], env });
  assert.equal(badSchedule.code, 1);
  assert.match(badSchedule.stderr, /seconds are too fine/);

  const added = await cli({ argv: [...base, 'add', '--name', 'Disk', '--prompt', 'Report disk usage.', '--schedule', '0 8 * * 1-5', '--deliver', 'telegram:42'], env });
  assert.equal(added.code, 0, added.stderr);
  const id = /^Created job ([0-9a-f]{8}) "Disk": every weekday at 08:00 \(Europe\/Berlin\); next run .* \(Europe\/Berlin\); delivers to telegram:42\.\n$/.exec(added.stdout)?.[1];
  assert.ok(id, added.stdout);

  const listed = await cli({ argv: [...base, 'list'], env });
  assert.equal(listed.code, 0);
  assert.match(listed.stdout, new RegExp(`^${id} "Disk" \\[active\\]\\n  schedule: every weekday at 08:00 \\(Europe/Berlin\\)`));
  assert.match(listed.stdout, /last run: never\n  delivers to: telegram:42\n  prompt: Report disk usage\.\n$/);
  const other = await cli({ argv: ['cron', 'list'], env });
  assert.equal(other.stdout, 'No scheduled jobs.\n', 'the default profile sees the work job');
  const otherRemove = await cli({ argv: ['cron', 'remove', id], env });
  assert.equal(otherRemove.code, 1);

  const status = await cli({ argv: ['status'], env });
  assert.match(status.stdout, new RegExp(`work: stopped.*\\n  next job: ${id} "Disk" at \\d{4}-\\d{2}-\\d{2} 08:00 \\(Europe/Berlin\\)`));
  // Status notes what it read (home/next-jobs-note.ts); any change to the jobs is read again.
  assert.equal((await cli({ argv: ['status'], env })).stdout, status.stdout);
  assert.equal((await cli({ argv: [...base, 'pause', id], env })).code, 0);
  assert.doesNotMatch((await cli({ argv: ['status'], env })).stdout, /next job/);
  assert.equal((await cli({ argv: [...base, 'resume', id], env })).code, 0);
  assert.equal((await cli({ argv: ['status'], env })).stdout, status.stdout);

  const edited = await cli({ argv: [...base, 'edit', id, '--schedule', 'every 3h'], env });
  assert.equal(edited.code, 0, edited.stderr);
  assert.match(edited.stdout, /^Updated job .* "Disk": every 3 hours/);
  assert.equal((await cli({ argv: [...base, 'edit', id], env })).code, 1, 'an edit without changes is refused');
  assert.equal((await cli({ argv: [...base, 'pause', id], env })).code, 0);
  assert.equal(withStore('work', (s) => s.job({ jobId: id })?.state), 'paused');
  assert.equal((await cli({ argv: [...base, 'run', id], env })).code, 1, 'a paused job does not run');
  assert.equal((await cli({ argv: [...base, 'resume', id], env })).code, 0);
  const ran = await cli({ argv: [...base, 'run', id], env });
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, /is due now/);

  // A run the scheduler recorded shows in history with its message ids.
  withStore('work', (s) => {
    const job = s.job({ jobId: id });
    assert.ok(job?.nextRunAt !== null && job?.nextRunAt !== undefined);
    const run = s.claimRun({ jobId: id, scheduledFor: job.nextRunAt, now: Date.now(), nextRunAt: job.nextRunAt + 10_800_000 });
    assert.ok(run);
    s.recordDelivery({ runId: run.id, target: 'telegram:42', platform: 'telegram', chatId: '42', messageIds: ['501', '502'], now: Date.now() });
    s.finishRun({ runId: run.id, outcome: 'delivered', now: Date.now() });
  });
  const history = await cli({ argv: [...base, 'history', id], env });
  assert.equal(history.code, 0, history.stderr);
  assert.match(history.stdout, /runs \(times in Europe\/Berlin\), newest first:\n\d{4}-\d{2}-\d{2} \d{2}:\d{2} delivered \(attempts 1\); telegram:42 message ids 501, 502\n$/);
  assert.match((await cli({ argv: [...base, 'list'], env })).stdout, /last run: \d{4}-\d{2}-\d{2} \d{2}:\d{2} delivered/);

  const removed = await cli({ argv: [...base, 'remove', id], env });
  assert.equal(removed.code, 0);
  assert.equal((await cli({ argv: [...base, 'list'], env })).stdout, 'No scheduled jobs.\n');
  assert.equal((await cli({ argv: ['-p', 'nope', 'cron', 'list'], env })).code, 66);
});
