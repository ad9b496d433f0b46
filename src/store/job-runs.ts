import type Database from 'better-sqlite3';
import type { DeliveryRecord, JobRunRow, RunOutcome } from './job-types.js';
import type { Clock } from '../core/clock.js';
import type { Store } from './types.js';

/** A job_runs row as SQLite returns it. */
interface RunRecord {
  id: number;
  job_id: string;
  scheduled_for: number;
  started_at: number;
  finished_at: number | null;
  outcome: RunOutcome;
  error: string | null;
  session_id: string | null;
  attempts: number;
  model_attempts: number;
  retry_at: number | null;
  skipped_count: number | null;
  skipped_until: number | null;
}

/** A job_deliveries row as SQLite returns it. */
interface DeliveryRow {
  run_id: number;
  target: string;
  platform: string;
  chat_id: string;
  thread_id: string | null;
  message_ids_json: string;
  error: string | null;
  attempts: number;
  updated_at: number;
}

/** Maps a stored delivery to the contract's shape (damaged message-id JSON reads as no ids). */
function toDelivery(row: DeliveryRow): DeliveryRecord {
  let messageIds: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.message_ids_json);
    if (Array.isArray(parsed)) messageIds = parsed.filter((id): id is string => typeof id === 'string');
  } catch {
    messageIds = [];
  }
  return {
    runId: row.run_id,
    target: row.target,
    platform: row.platform,
    chatId: row.chat_id,
    threadId: row.thread_id,
    messageIds,
    error: row.error,
    attempts: row.attempts,
    updatedAt: row.updated_at,
  };
}

/** The job-run part of the Store: claims, outcomes, retries, deliveries, skipped records. */
export type JobRunQueries = Pick<
  Store,
  | 'claimRun'
  | 'setRunSession'
  | 'finishRun'
  | 'dueRetries'
  | 'claimRetry'
  | 'openRuns'
  | 'recordDelivery'
  | 'runsOf'
  | 'recordSkipped'
>;

/** What a finished run (or attempt of it) is stored with. */
interface RunFinish {
  runId: number;
  outcome: RunOutcome;
  error: string | null;
  retryAt: number | null;
  modelAttempts: number | null;
  now: number;
}

/** Reads stored runs back in the contract's shape, with their deliveries. */
interface RunReader {
  /** A job_runs row with its deliveries. */
  toRun: (record: RunRecord) => JobRunRow;
  /** The run with this id; undefined for no id or no such run. */
  run: (id: number | undefined) => JobRunRow | undefined;
}

/** Prepares the statements a run is read back with. */
function createRunReader(params: { db: Database.Database }): RunReader {
  const { db } = params;
  const runById = db.prepare<[number], RunRecord>('SELECT * FROM job_runs WHERE id = ?');
  const deliveriesOf = db.prepare<[number], DeliveryRow>('SELECT * FROM job_deliveries WHERE run_id = ? ORDER BY target');
  const toRun = (record: RunRecord): JobRunRow => ({
    id: record.id,
    jobId: record.job_id,
    scheduledFor: record.scheduled_for,
    startedAt: record.started_at,
    finishedAt: record.finished_at,
    outcome: record.outcome,
    error: record.error,
    sessionId: record.session_id,
    attempts: record.attempts,
    modelAttempts: record.model_attempts,
    retryAt: record.retry_at,
    skippedCount: record.skipped_count,
    skippedUntil: record.skipped_until,
    deliveries: deliveriesOf.all(record.id).map(toDelivery),
  });
  const run = (id: number | undefined): JobRunRow | undefined => {
    const record = id === undefined ? undefined : runById.get(id);
    return record ? toRun(record) : undefined;
  };
  return { toRun, run };
}

/** The methods that start a run of a scheduled time, or record scheduled times as skipped, moving the job's next run. */
function createRunClaims(params: { db: Database.Database; reader: RunReader }): Pick<JobRunQueries, 'claimRun' | 'recordSkipped'> {
  const { db, reader } = params;
  // ON CONFLICT DO NOTHING (SQLite and Postgres alike): the second claim of a scheduled time inserts nothing.
  const claim = db.prepare<{ jobId: string; scheduledFor: number; now: number }, { id: number }>(
    `INSERT INTO job_runs (job_id, scheduled_for, started_at, outcome, attempts)
     SELECT @jobId, @scheduledFor, @now, 'running', 1 WHERE EXISTS (SELECT 1 FROM jobs WHERE id = @jobId)
     ON CONFLICT (job_id, scheduled_for) DO NOTHING RETURNING id`,
  );
  const afterClaim = db.prepare<{ jobId: string; scheduledFor: number; nextRunAt: number | null; now: number }>(
    `UPDATE jobs SET next_run_at = @nextRunAt, updated_at = @now, last_outcome = 'running',
       last_run_at = max(coalesce(last_run_at, @scheduledFor), @scheduledFor) WHERE id = @jobId`,
  );
  const skip = db.prepare<{ jobId: string; from: number; to: number; count: number; reason: string | null; now: number }, { id: number }>(
    `INSERT INTO job_runs (job_id, scheduled_for, started_at, finished_at, outcome, error, attempts, skipped_count, skipped_until)
     SELECT @jobId, @from, @now, @now, 'skipped', @reason, 0, @count, @to WHERE EXISTS (SELECT 1 FROM jobs WHERE id = @jobId)
     ON CONFLICT (job_id, scheduled_for) DO NOTHING RETURNING id`,
  );
  const afterSkip = db.prepare<{ jobId: string; nextRunAt: number | null; now: number }>(
    'UPDATE jobs SET next_run_at = @nextRunAt, updated_at = @now, last_outcome = coalesce(last_outcome, \'skipped\') WHERE id = @jobId',
  );
  const claimTx = db.transaction((p: { jobId: string; scheduledFor: number; now: number; nextRunAt: number | null }): number | undefined => {
    const inserted = claim.get({ jobId: p.jobId, scheduledFor: p.scheduledFor, now: p.now });
    if (!inserted) return undefined;
    afterClaim.run({ jobId: p.jobId, scheduledFor: p.scheduledFor, nextRunAt: p.nextRunAt, now: p.now });
    return inserted.id;
  });
  const skipTx = db.transaction(
    (p: { jobId: string; from: number; to: number; count: number; reason?: string; now: number; nextRunAt?: number | null }): number | undefined => {
      const inserted = skip.get({ jobId: p.jobId, from: p.from, to: p.to, count: p.count, reason: p.reason ?? null, now: p.now });
      if (!inserted) return undefined;
      if (p.nextRunAt !== undefined) afterSkip.run({ jobId: p.jobId, nextRunAt: p.nextRunAt, now: p.now });
      return inserted.id;
    },
  );
  return {
    // IMMEDIATE: the write lock is taken before the INSERT, so two processes serialize on it instead of one failing with SQLITE_BUSY mid-transaction.
    claimRun: (p) => reader.run(claimTx.immediate(p)),
    recordSkipped: (p) => reader.run(skipTx.immediate(p)),
  };
}

/** The methods of a run's course: its session, its outcome (the job's last outcome follows), its retries. */
function createRunOutcomes(params: {
  db: Database.Database;
  reader: RunReader;
}): Pick<JobRunQueries, 'setRunSession' | 'finishRun' | 'dueRetries' | 'claimRetry'> {
  const { db, reader } = params;
  const setSession = db.prepare<[string, number]>('UPDATE job_runs SET session_id = ? WHERE id = ?');
  const finish = db.prepare<RunFinish>(
    `UPDATE job_runs SET outcome = @outcome, error = @error, retry_at = @retryAt, finished_at = @now,
       model_attempts = coalesce(@modelAttempts, model_attempts) WHERE id = @runId`,
  );
  const jobOutcome = db.prepare<{ runId: number; outcome: RunOutcome; now: number }>(
    `UPDATE jobs SET last_outcome = @outcome, updated_at = @now
     WHERE id = (SELECT job_id FROM job_runs WHERE id = @runId) AND last_run_at = (SELECT scheduled_for FROM job_runs WHERE id = @runId)`,
  );
  const retries = db.prepare<[number], RunRecord>(
    `SELECT r.* FROM job_runs r JOIN jobs j ON j.id = r.job_id
     WHERE r.retry_at IS NOT NULL AND r.retry_at <= ? AND r.outcome IN ('retrying', 'delivery_failed') AND j.state = 'active'
     ORDER BY r.retry_at, r.id`,
  );
  const retake = db.prepare<{ runId: number; now: number }>(
    `UPDATE job_runs SET outcome = 'running', attempts = attempts + 1, retry_at = NULL, started_at = @now, finished_at = NULL
     WHERE id = @runId AND outcome IN ('retrying', 'delivery_failed') AND retry_at IS NOT NULL`,
  );
  const finishTx = db.transaction((p: RunFinish) => {
    if (finish.run(p).changes === 0) return false;
    jobOutcome.run({ runId: p.runId, outcome: p.outcome, now: p.now });
    return true;
  });
  const retakeTx = db.transaction((p: { runId: number; now: number }): boolean => {
    if (retake.run(p).changes === 0) return false;
    jobOutcome.run({ runId: p.runId, outcome: 'running', now: p.now });
    return true;
  });
  return {
    setRunSession: ({ runId, sessionId }) => {
      setSession.run(sessionId, runId);
    },
    finishRun: ({ runId, outcome, error, retryAt, modelAttempts, now }) =>
      finishTx.immediate({ runId, outcome, error: error ?? null, retryAt: retryAt ?? null, modelAttempts: modelAttempts ?? null, now })
        ? reader.run(runId)
        : undefined,
    dueRetries: ({ now }) => retries.all(now).map(reader.toRun),
    claimRetry: ({ runId, now }) => (retakeTx.immediate({ runId, now }) ? reader.run(runId) : undefined),
  };
}

/** The methods of what runs left behind: a target's delivery recorded, the open runs and a job's newest runs listed. */
function createRunRecords(params: {
  db: Database.Database;
  clock: Clock;
  reader: RunReader;
}): Pick<JobRunQueries, 'openRuns' | 'recordDelivery' | 'runsOf'> {
  const { db, clock, reader } = params;
  const deliveryOf = db.prepare<[number, string], DeliveryRow>('SELECT * FROM job_deliveries WHERE run_id = ? AND target = ?');
  const open = db.prepare<[], RunRecord>("SELECT * FROM job_runs WHERE outcome = 'running' ORDER BY started_at, id");
  const deliver = db.prepare<DeliveryRow>(
    `INSERT INTO job_deliveries (run_id, target, platform, chat_id, thread_id, message_ids_json, error, attempts, updated_at)
     VALUES (@run_id, @target, @platform, @chat_id, @thread_id, @message_ids_json, @error, 1, @updated_at)
     ON CONFLICT (run_id, target) DO UPDATE SET platform = excluded.platform, chat_id = excluded.chat_id,
       thread_id = excluded.thread_id, message_ids_json = excluded.message_ids_json, error = excluded.error,
       attempts = job_deliveries.attempts + 1, updated_at = excluded.updated_at`,
  );
  const newest = db.prepare<[string, number], RunRecord>('SELECT * FROM job_runs WHERE job_id = ? ORDER BY scheduled_for DESC, id DESC LIMIT ?');
  return {
    openRuns: () => open.all().map(reader.toRun),
    recordDelivery: ({ runId, target, platform, chatId, threadId, messageIds, error }) => {
      deliver.run({
        run_id: runId,
        target,
        platform,
        chat_id: chatId,
        thread_id: threadId ?? null,
        message_ids_json: JSON.stringify(messageIds),
        error: error ?? null,
        attempts: 1,
        updated_at: clock.now(),
      });
      const stored = deliveryOf.get(runId, target);
      if (!stored) throw new Error(`store: delivery of run ${runId} to ${target} vanished after upsert`);
      return toDelivery(stored);
    },
    runsOf: ({ jobId, limit }) => newest.all(jobId, limit).map(reader.toRun),
  };
}

/** Prepares the job-run statements once and returns the methods that use them. */
export function createJobRunQueries(params: { db: Database.Database; clock: Clock }): JobRunQueries {
  const { db, clock } = params;
  const reader = createRunReader({ db });
  return {
    ...createRunClaims({ db, reader }),
    ...createRunOutcomes({ db, reader }),
    ...createRunRecords({ db, clock, reader }),
  };
}
