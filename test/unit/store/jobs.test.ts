import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { planCatchUp } from '../../../src/jobs/catch-up.js';
import type { NewJob } from '../../../src/store/job-types.js';
import { migrate } from '../../../src/store/migrate.js';
import { migrations } from '../../../src/store/migrations.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { silentStoreLogger } from '../../../src/store/store-logger.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeTempDir } from './fixtures.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-12-01T10:00:00Z');

/** An hourly job for the telegram chat it was asked from. */
function hourly(overrides: Partial<NewJob> = {}): NewJob {
  return {
    name: 'top issues',
    prompt: 'Send me the top issues of my repo',
    scheduleText: '0 * * * *',
    schedule: { kind: 'cron', expression: '0 * * * *' },
    timeZone: 'Europe/Berlin',
    targets: [
      { kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true },
      { kind: 'home', platform: 'slack' },
    ],
    nextRunAt: T,
    ...overrides,
  };
}

describe('store: jobs', () => {
  let dir: string;
  let cleanup: () => void;
  let file: string;
  let clock: FakeClock;
  let store: Store;
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    file = path.join(dir, 'state.db');
    clock = new FakeClock(T - HOUR);
    store = openStore({ path: file, clock });
  });
  afterEach(() => {
    store.close();
    cleanup();
  });

  test('a created job reads back with its schedule, targets and state; listJobs filters by state', async () => {
    const job = store.createJob(hourly());
    assert.match(job.id, /^[0-9a-f]{8}$/);
    assert.deepEqual(store.job({ jobId: job.id }), job);
    assert.deepEqual(job.targets, hourly().targets);
    assert.equal(job.state, 'active');
    assert.equal(job.script, null);
    assert.equal(job.createdAt, T - HOUR);
    assert.equal(job.lastRunAt, null);
    await clock.advance(1);
    const paused = store.createJob(hourly({ name: 'paused one', state: 'paused', script: 'df -h' }));
    assert.equal(paused.script, 'df -h');
    assert.deepEqual(store.listJobs({}).map((j) => j.name), ['top issues', 'paused one']);
    assert.deepEqual(store.listJobs({ states: ['paused'] }).map((j) => j.id), [paused.id]);
  });

  test('updateJob changes only the fields given; setJobState pauses and dueJobs leaves paused jobs out', () => {
    const job = store.createJob(hourly());
    const updated = store.updateJob({ jobId: job.id, changes: { prompt: 'new prompt', schedule: { kind: 'interval', everyMs: HOUR, anchorMs: T }, scheduleText: 'every 1h' } });
    assert.equal(updated?.prompt, 'new prompt');
    assert.equal(updated?.name, 'top issues');
    assert.deepEqual(updated?.schedule, { kind: 'interval', everyMs: HOUR, anchorMs: T });
    assert.equal(store.updateJob({ jobId: 'nope', changes: { name: 'x' } }), undefined);
    assert.deepEqual(store.dueJobs({ now: T }).map((j) => j.id), [job.id]);
    assert.deepEqual(store.dueJobs({ now: T - 1 }), []);
    assert.equal(store.setJobState({ jobId: job.id, state: 'paused' })?.state, 'paused');
    assert.deepEqual(store.dueJobs({ now: T }), []);
    assert.equal(store.setJobState({ jobId: job.id, state: 'active', nextRunAt: T + HOUR })?.nextRunAt, T + HOUR);
    assert.deepEqual(store.dueJobs({ now: T }), []);
    assert.deepEqual(store.dueJobs({ now: T + HOUR }).map((j) => j.id), [job.id]);
  });

  test('claiming a scheduled time twice: the second claim gets nothing; the claim moves next and last run', () => {
    const job = store.createJob(hourly());
    const run = store.claimRun({ jobId: job.id, scheduledFor: T, now: T + 5, nextRunAt: T + HOUR });
    assert.equal(run?.outcome, 'running');
    assert.equal(run?.attempts, 1);
    assert.equal(run?.startedAt, T + 5);
    assert.equal(store.claimRun({ jobId: job.id, scheduledFor: T, now: T + 6, nextRunAt: T + 2 * HOUR }), undefined);
    const after = store.job({ jobId: job.id });
    assert.equal(after?.nextRunAt, T + HOUR, 'the refused claim changed nothing');
    assert.equal(after?.lastRunAt, T);
    assert.equal(after?.lastOutcome, 'running');
    assert.equal(store.claimRun({ jobId: 'gone', scheduledFor: T, now: T, nextRunAt: null }), undefined);
  });

  test('a claim survives a reopened store file (kill -9 one second before due, restart two minutes after: one run)', () => {
    const job = store.createJob(hourly());
    clock = new FakeClock(T - 1_000);
    assert.deepEqual(store.dueJobs({ now: clock.now() }), [], 'not due when the process dies');
    store.close();
    clock = new FakeClock(T + 2 * 60_000);
    store = openStore({ path: file, clock });
    const due = store.dueJobs({ now: clock.now() });
    assert.deepEqual(due.map((j) => j.id), [job.id]);
    const dueJob = due[0];
    assert.ok(dueJob);
    const plan = planCatchUp({ schedule: dueJob.schedule, timeZone: dueJob.timeZone, nextRunAt: dueJob.nextRunAt, lastScheduledFor: dueJob.lastRunAt, now: clock.now(), catchUpWindowMs: HOUR });
    assert.equal(plan.runFor, T);
    assert.ok(store.claimRun({ jobId: job.id, scheduledFor: T, now: clock.now(), nextRunAt: plan.nextRunAt ?? null }));
    // Killed again right after the claim: the replay claims the same time again and gets nothing.
    store.close();
    store = openStore({ path: file, clock });
    assert.equal(store.claimRun({ jobId: job.id, scheduledFor: T, now: clock.now(), nextRunAt: plan.nextRunAt ?? null }), undefined);
    assert.deepEqual(store.dueJobs({ now: clock.now() }), []);
    assert.deepEqual(store.openRuns().map((r) => r.scheduledFor), [T], 'the interrupted run is found for recovery');
    assert.deepEqual(store.runsOf({ jobId: job.id, limit: 10 }).map((r) => r.scheduledFor), [T]);
  });

  test('two stores on one file: only one claims a scheduled time', () => {
    const job = store.createJob(hourly());
    const other = openStore({ path: file, clock });
    try {
      const stale = other.job({ jobId: job.id });
      assert.equal(stale?.nextRunAt, T);
      assert.ok(store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR }));
      assert.equal(other.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR }), undefined);
      assert.equal(other.runsOf({ jobId: job.id, limit: 5 }).length, 1);
    } finally {
      other.close();
    }
  });

  test('a 3-hour downtime over an hourly job: one run, the two misses before it recorded skipped (once)', () => {
    const job = store.createJob(hourly());
    const now = T + 2.5 * HOUR;
    const plan = planCatchUp({ schedule: job.schedule, timeZone: job.timeZone, nextRunAt: job.nextRunAt, lastScheduledFor: null, now, catchUpWindowMs: HOUR });
    const skipped = plan.skipped;
    assert.ok(skipped && plan.runFor !== undefined);
    const record = store.recordSkipped({ jobId: job.id, from: skipped.from, to: skipped.to, count: skipped.count, now });
    assert.equal(record?.outcome, 'skipped');
    assert.equal(record?.skippedCount, 2);
    assert.equal(record?.skippedUntil, T + HOUR);
    assert.equal(store.recordSkipped({ jobId: job.id, from: skipped.from, to: skipped.to, count: skipped.count, now }), undefined, 'a replay records nothing');
    assert.ok(store.claimRun({ jobId: job.id, scheduledFor: plan.runFor, now, nextRunAt: plan.nextRunAt ?? null }));
    const runs = store.runsOf({ jobId: job.id, limit: 10 });
    assert.deepEqual(runs.map((r) => [r.scheduledFor, r.outcome, r.skippedCount]), [[T + 2 * HOUR, 'running', null], [T, 'skipped', 2]]);
    assert.equal(store.job({ jobId: job.id })?.nextRunAt, T + 3 * HOUR);
  });

  test('recordSkipped with a next run moves the job on when nothing runs', () => {
    const job = store.createJob(hourly());
    store.recordSkipped({ jobId: job.id, from: T, to: T, count: 1, now: T + 3 * HOUR, nextRunAt: T + 4 * HOUR });
    const after = store.job({ jobId: job.id });
    assert.equal(after?.nextRunAt, T + 4 * HOUR);
    assert.equal(after?.lastOutcome, 'skipped');
  });

  test('finishRun and recordDelivery: per-target message ids as proof, upserted on retry; the job shows the outcome', () => {
    const job = store.createJob(hourly());
    const run = store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR });
    assert.ok(run);
    store.setRunSession({ runId: run.id, sessionId: 's-1' });
    store.recordDelivery({ runId: run.id, target: 'telegram:42', platform: 'telegram', chatId: '42', messageIds: ['101', '102'], now: T });
    store.recordDelivery({ runId: run.id, target: 'slack:C1', platform: 'slack', chatId: 'C1', threadId: '1.2', messageIds: [], error: 'HTTP 500', now: T });
    const failed = store.finishRun({ runId: run.id, outcome: 'delivery_failed', error: 'slack:C1: HTTP 500', retryAt: T + 60_000, now: T + 1 });
    assert.equal(failed?.outcome, 'delivery_failed');
    assert.equal(failed?.sessionId, 's-1');
    assert.equal(store.job({ jobId: job.id })?.lastOutcome, 'delivery_failed');
    assert.deepEqual(store.dueRetries({ now: T + 59_999 }), []);
    assert.deepEqual(store.dueRetries({ now: T + 60_000 }).map((r) => r.id), [run.id]);
    const retried = store.claimRetry({ runId: run.id, now: T + 60_000 });
    assert.equal(retried?.attempts, 2);
    assert.equal(retried?.outcome, 'running');
    assert.equal(store.claimRetry({ runId: run.id, now: T + 60_000 }), undefined, 'a second taker gets nothing');
    const slack = store.recordDelivery({ runId: run.id, target: 'slack:C1', platform: 'slack', chatId: 'C1', threadId: '1.2', messageIds: ['1.3'], now: T + 60_000 });
    assert.deepEqual([slack.attempts, slack.error, slack.messageIds], [2, null, ['1.3']]);
    store.finishRun({ runId: run.id, outcome: 'delivered', now: T + 60_001 });
    const [done] = store.runsOf({ jobId: job.id, limit: 1 });
    assert.equal(done?.outcome, 'delivered');
    assert.equal(done?.retryAt, null);
    assert.deepEqual(done?.deliveries.map((d) => [d.target, d.messageIds, d.threadId]), [['slack:C1', ['1.3'], '1.2'], ['telegram:42', ['101', '102'], null]]);
    assert.equal(store.job({ jobId: job.id })?.lastOutcome, 'delivered');
    assert.equal(store.finishRun({ runId: 999, outcome: 'failed', now: T }), undefined);
  });

  test('a retrying run of a paused job is not due; an older run finishing does not overwrite the newest outcome', () => {
    const job = store.createJob(hourly());
    const first = store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR });
    assert.ok(first);
    store.finishRun({ runId: first.id, outcome: 'retrying', error: 'model unreachable', retryAt: T + 5 * 60_000, now: T });
    store.setJobState({ jobId: job.id, state: 'paused' });
    assert.deepEqual(store.dueRetries({ now: T + HOUR }), []);
    store.setJobState({ jobId: job.id, state: 'active' });
    const second = store.claimRun({ jobId: job.id, scheduledFor: T + HOUR, now: T + HOUR, nextRunAt: T + 2 * HOUR });
    assert.ok(second);
    store.finishRun({ runId: second.id, outcome: 'silent', now: T + HOUR });
    store.finishRun({ runId: first.id, outcome: 'failed', error: 'model unreachable after 3 retries', now: T + HOUR });
    assert.equal(store.job({ jobId: job.id })?.lastOutcome, 'silent');
  });

  test('removeJob removes its runs and deliveries', () => {
    const job = store.createJob(hourly());
    const run = store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: null });
    assert.ok(run);
    store.recordDelivery({ runId: run.id, target: 'telegram:42', platform: 'telegram', chatId: '42', messageIds: ['1'], now: T });
    assert.equal(store.removeJob({ jobId: job.id }), true);
    assert.equal(store.removeJob({ jobId: job.id }), false);
    assert.equal(store.job({ jobId: job.id }), undefined);
    assert.deepEqual(store.runsOf({ jobId: job.id, limit: 5 }), []);
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.prepare('SELECT count(*) FROM job_deliveries').pluck().get(), 0);
    } finally {
      db.close();
    }
  });

  test('home channels: set, replaced, listed by platform', () => {
    assert.equal(store.homeChannel({ platform: 'telegram' }), undefined);
    store.setHomeChannel({ platform: 'telegram', chat: { id: '42', kind: 'dm' } });
    store.setHomeChannel({ platform: 'slack', chat: { id: 'C1', kind: 'channel', threadId: '1.2' } });
    const replaced = store.setHomeChannel({ platform: 'telegram', chat: { id: '-100', kind: 'group' } });
    assert.deepEqual(replaced.chat, { id: '-100', kind: 'group' });
    assert.deepEqual(store.homeChannel({ platform: 'telegram' })?.chat, { id: '-100', kind: 'group' });
    assert.deepEqual(store.homeChannels().map((h) => [h.platform, h.chat]), [
      ['slack', { id: 'C1', kind: 'channel', threadId: '1.2' }],
      ['telegram', { id: '-100', kind: 'group' }],
    ]);
  });

  test('known chats: newest first, titled by the newest person who wrote there (never the gateway’s own journal rows)', async () => {
    const event = (p: { chat: string; id: string; sender: { id: string; name?: string; username?: string; isBot: boolean } }) => ({
      platform: 'telegram', messageId: p.id, chat: { id: p.chat, kind: 'dm' as const }, sender: p.sender, text: 'x', media: [], mentioned: true, receivedAt: clock.now(),
    });
    store.recordInbound({ event: event({ chat: '42', id: 'a', sender: { id: '42', name: 'Olga', isBot: false } }), sessionKey: 'k1' });
    await clock.advance(1000);
    store.recordInbound({ event: event({ chat: '43', id: 'b', sender: { id: '43', username: 'pat', isBot: false } }), sessionKey: 'k2' });
    await clock.advance(1000);
    // A row the gateway journals itself (a send_message to chat 42): the chat moves up, its title stays the person's.
    store.recordInbound({ event: event({ chat: '42', id: 'send:1:ff', sender: { id: 'hermes:send_message', name: 'send_message', isBot: true } }), sessionKey: 'k3', done: true });
    assert.deepEqual(store.knownChats({ limit: 10 }).map((k) => [k.chat.id, k.title]), [['42', 'Olga'], ['43', '@pat']]);
  });

  test('a job whose stored schedule is damaged is skipped with a log line, not thrown', () => {
    const good = store.createJob(hourly());
    const bad = store.createJob(hourly({ name: 'bad' }));
    store.close();
    const db = new Database(file);
    db.prepare("UPDATE jobs SET schedule_json = '{' WHERE id = ?").run(bad.id);
    db.close();
    const warnings: string[] = [];
    store = openStore({ path: file, clock, logger: { info: () => undefined, warn: (_: object, msg: string) => warnings.push(msg) } });
    assert.deepEqual(store.listJobs({}).map((j) => j.id), [good.id]);
    assert.equal(store.job({ jobId: bad.id }), undefined);
    assert.equal(warnings.length, 2);
  });
});

describe('migration 6 (scheduled jobs)', () => {
  test('applies to a version-5 database, keeping its data; the job tables then work', () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const file = path.join(dir, 'state.db');
      const clock = new FakeClock(T);
      const v5 = new Database(file);
      migrate({ db: v5, migrations: migrations.slice(0, 5), clock, location: file, logger: silentStoreLogger });
      v5.prepare("INSERT INTO credential_state (fingerprint, calls, updated_at) VALUES ('fp', 3, 0)").run();
      v5.prepare("INSERT INTO cursors (name, value, updated_at) VALUES ('telegram.offset', '7', 0)").run();
      v5.close();
      const store = openStore({ path: file, clock });
      try {
        assert.equal(store.getCursor({ name: 'telegram.offset' }), '7');
        assert.equal(store.credentialStates({ fingerprints: ['fp'] })[0]?.calls, 3);
        const job = store.createJob(hourly());
        assert.ok(store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: T + HOUR }));
      } finally {
        store.close();
      }
      const db = new Database(file, { readonly: true });
      try {
        assert.equal(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get(), migrations.at(-1)?.version);
      } finally {
        db.close();
      }
    } finally {
      cleanup();
    }
  });
});
