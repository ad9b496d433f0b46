import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { chatRefSchema } from '../core/adapter.js';
import type { DeliveryTarget, JobChanges, JobRow, JobState, NewJob, RunOutcome } from './job-types.js';
import { scheduleFromJson } from '../util/schedule/schedule.js';
import type { Clock } from '../core/clock.js';
import type { StoreLogger } from './store-logger.js';
import type { Store } from './types.js';

/** A jobs row as SQLite returns it. */
export interface JobRecord {
  id: string;
  name: string;
  prompt: string;
  script: string | null;
  schedule_text: string;
  schedule_kind: string;
  schedule_json: string;
  time_zone: string;
  targets_json: string;
  state: JobState;
  created_at: number;
  updated_at: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_outcome: RunOutcome | null;
}

const targetsSchema = z.array(
  z.union([
    z.object({ kind: z.literal('chat'), platform: z.string().min(1), chat: chatRefSchema, origin: z.boolean() }),
    z.object({ kind: z.literal('home'), platform: z.string().min(1) }),
  ]),
);

/** Maps a stored job to the contract's shape; undefined (logged) when its schedule or targets JSON is damaged. */
function toJob(record: JobRecord, logger: StoreLogger): JobRow | undefined {
  const schedule = scheduleFromJson({ json: record.schedule_json });
  let targets: DeliveryTarget[] | undefined;
  try {
    const parsed = targetsSchema.safeParse(JSON.parse(record.targets_json));
    targets = parsed.success ? parsed.data : undefined;
  } catch {
    targets = undefined;
  }
  if (schedule === undefined || targets === undefined) {
    logger.warn({ jobId: record.id }, 'store: skipping a job whose stored schedule or targets cannot be read');
    return undefined;
  }
  return {
    id: record.id,
    name: record.name,
    prompt: record.prompt,
    script: record.script,
    scheduleText: record.schedule_text,
    schedule,
    timeZone: record.time_zone,
    targets,
    state: record.state,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    nextRunAt: record.next_run_at,
    lastRunAt: record.last_run_at,
    lastOutcome: record.last_outcome,
  };
}

/** A new job id: 8 random hex digits (short enough for the model and the CLI to repeat). */
function newJobId(): string {
  return randomBytes(4).toString('hex');
}

/** The job part of the Store (runs are in job-runs.ts). */
export type JobQueries = Pick<Store, 'createJob' | 'updateJob' | 'setJobState' | 'job' | 'listJobs' | 'removeJob' | 'dueJobs'>;

/** The job statements, prepared once. */
interface JobStatements {
  one: Database.Statement<[string], JobRecord>;
  all: Database.Statement<[], JobRecord>;
  due: Database.Statement<[number], JobRecord>;
  insert: Database.Statement<JobRecord>;
  update: Database.Statement<JobRecord>;
  remove: Database.Statement<[string]>;
}

/** A stored job (or nothing) as the contract's JobRow; undefined for nothing and for a damaged row. */
type JobReader = (record: JobRecord | undefined) => JobRow | undefined;

/** Prepares the statements of the jobs table. */
function prepareJobStatements(params: { db: Database.Database }): JobStatements {
  const { db } = params;
  return {
    one: db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE id = ?'),
    all: db.prepare<[], JobRecord>('SELECT * FROM jobs ORDER BY created_at, id'),
    due: db.prepare<[number], JobRecord>(
      "SELECT * FROM jobs WHERE state = 'active' AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id",
    ),
    insert: db.prepare<JobRecord>(
      `INSERT INTO jobs (id, name, prompt, script, schedule_text, schedule_kind, schedule_json, time_zone, targets_json, state,
         created_at, updated_at, next_run_at, last_run_at, last_outcome)
       VALUES (@id, @name, @prompt, @script, @schedule_text, @schedule_kind, @schedule_json, @time_zone, @targets_json, @state,
         @created_at, @updated_at, @next_run_at, @last_run_at, @last_outcome)`,
    ),
    update: db.prepare<JobRecord>(
      `UPDATE jobs SET name = @name, prompt = @prompt, script = @script, schedule_text = @schedule_text,
         schedule_kind = @schedule_kind, schedule_json = @schedule_json, time_zone = @time_zone, targets_json = @targets_json,
         state = @state, updated_at = @updated_at, next_run_at = @next_run_at WHERE id = @id`,
    ),
    remove: db.prepare<[string]>('DELETE FROM jobs WHERE id = ?'),
  };
}

/** The row a new job is stored as, under a fresh id, created and updated at `now`, never run. */
function newJobRecord(params: { job: NewJob; now: number }): JobRecord {
  const { job, now } = params;
  return {
    id: newJobId(),
    name: job.name,
    prompt: job.prompt,
    script: job.script ?? null,
    schedule_text: job.scheduleText,
    schedule_kind: job.schedule.kind,
    schedule_json: JSON.stringify(job.schedule),
    time_zone: job.timeZone,
    targets_json: JSON.stringify(job.targets),
    state: job.state ?? 'active',
    created_at: now,
    updated_at: now,
    next_run_at: job.nextRunAt,
    last_run_at: null,
    last_outcome: null,
  };
}

/** Inserts `record`; an id collision (1 in 4 billion per pair) retries with a new id (changing `record.id`) instead of failing. */
function insertWithFreshId(params: { insert: JobStatements['insert']; record: JobRecord }): void {
  const { insert, record } = params;
  for (let attempt = 0; ; attempt++) {
    try {
      insert.run(record);
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= 3 || code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
      record.id = newJobId();
    }
  }
}

/** `record` with the given `changes` applied, updated at `now`. */
function applyJobChanges(params: { record: JobRecord; changes: JobChanges; now: number }): JobRecord {
  const { record, changes, now } = params;
  return {
    ...record,
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.prompt !== undefined ? { prompt: changes.prompt } : {}),
    ...(changes.script !== undefined ? { script: changes.script } : {}),
    ...(changes.scheduleText !== undefined ? { schedule_text: changes.scheduleText } : {}),
    ...(changes.schedule !== undefined
      ? { schedule_kind: changes.schedule.kind, schedule_json: JSON.stringify(changes.schedule) }
      : {}),
    ...(changes.timeZone !== undefined ? { time_zone: changes.timeZone } : {}),
    ...(changes.targets !== undefined ? { targets_json: JSON.stringify(changes.targets) } : {}),
    ...(changes.nextRunAt !== undefined ? { next_run_at: changes.nextRunAt } : {}),
    updated_at: now,
  };
}

/** The methods that write jobs: create, change, change state, remove. */
function createJobWrites(params: {
  db: Database.Database;
  statements: JobStatements;
  clock: Clock;
  read: JobReader;
}): Pick<JobQueries, 'createJob' | 'updateJob' | 'setJobState' | 'removeJob'> {
  const { db, statements, clock, read } = params;
  const { one, insert, update, remove } = statements;
  /** Reads a job, applies `change` and writes it back, in one transaction; undefined when there is no such job. */
  const changeTx = db.transaction((jobId: string, change: (record: JobRecord) => JobRecord): JobRow | undefined => {
    const record = one.get(jobId);
    if (!record) return undefined;
    update.run(change(record));
    return read(one.get(jobId));
  });
  return {
    createJob: (job) => {
      const record = newJobRecord({ job, now: clock.now() });
      insertWithFreshId({ insert, record });
      const stored = read(one.get(record.id));
      if (!stored) throw new Error(`store: job ${record.id} vanished after insert`);
      return stored;
    },
    updateJob: ({ jobId, changes }) => changeTx.immediate(jobId, (record) => applyJobChanges({ record, changes, now: clock.now() })),
    setJobState: ({ jobId, state, nextRunAt }) =>
      changeTx.immediate(jobId, (record) => ({
        ...record,
        state,
        ...(nextRunAt !== undefined ? { next_run_at: nextRunAt } : {}),
        updated_at: clock.now(),
      })),
    removeJob: ({ jobId }) => remove.run(jobId).changes > 0,
  };
}

/** The methods that read jobs: one, a list, the due ones. */
function createJobReads(params: { statements: JobStatements; read: JobReader }): Pick<JobQueries, 'job' | 'listJobs' | 'dueJobs'> {
  const { statements, read } = params;
  const { one, all, due } = statements;
  return {
    job: ({ jobId }) => read(one.get(jobId)),
    listJobs: ({ states }) =>
      all
        .all()
        .filter((r) => states === undefined || states.includes(r.state))
        .flatMap((r) => read(r) ?? []),
    dueJobs: ({ now }) => due.all(now).flatMap((r) => read(r) ?? []),
  };
}

/** Prepares the job statements once and returns the methods that use them. */
export function createJobQueries(params: { db: Database.Database; clock: Clock; logger: StoreLogger }): JobQueries {
  const { db, clock, logger } = params;
  const statements = prepareJobStatements({ db });
  const read: JobReader = (record) => (record ? toJob(record, logger) : undefined);
  return { ...createJobWrites({ db, statements, clock, read }), ...createJobReads({ statements, read }) };
}
