/*
 * How a scheduler uses the jobs store (each profile's store holds only its own jobs):
 *   1. create: parseSchedule({text, timeZone, now}) -> nextRun({schedule, after: now, timeZone}) -> store.createJob.
 *   2. tick (on start, then at the soonest next_run_at): for each store.dueJobs({now}):
 *        plan = planCatchUp({schedule, timeZone, nextRunAt, lastScheduledFor: job.lastRunAt, now, catchUpWindowMs});
 *        plan.skipped -> store.recordSkipped({..., nextRunAt: plan.runFor === undefined ? plan.nextRunAt ?? null : undefined});
 *        plan.runFor  -> run = store.claimRun({jobId, scheduledFor: plan.runFor, now, nextRunAt: plan.nextRunAt ?? null});
 *                        undefined means another process (or this one before a crash) has it: do nothing.
 *        a one-shot with no next run: store.setJobState({state: 'done'}) once its run finished.
 *   3. run: setRunSession; per target recordDelivery (message ids, or the error); finishRun with the outcome
 *      (`retrying` + retryAt from modelRetryDelay, `delivery_failed` + retryAt, or a final one).
 *   4. retries: store.dueRetries({now}) -> store.claimRetry({runId, now}) -> the same run again (same scheduled time).
 *   "run now" (cronjob run): claimRun({scheduledFor: now, nextRunAt: job.nextRunAt}) leaves the schedule as it was
 *      (a due time at or before that run is then treated as claimed by planCatchUp's lastScheduledFor).
 *   5. after a crash: store.openRuns() are runs whose turn was in flight (the inbox journal replays the turn).
 */
import type { ChatRef } from '../core/adapter.js';
import type { Schedule } from '../util/schedule/types.js';

/** A job's life: `active` runs when due, `paused` waits, `done` (a one-shot that ran) and `failed` (retries ran out) stay listed. */
export type JobState = 'active' | 'paused' | 'done' | 'failed';

/**
 * Where a job's output goes. `chat` is a concrete chat (the origin chat it was asked from, or `<platform>:<chat>[:<thread>]`);
 * `home` is the platform's home channel (set with /sethome), looked up when the run delivers so a later /sethome counts.
 */
export type DeliveryTarget =
  | { readonly kind: 'chat'; readonly platform: string; readonly chat: ChatRef; readonly origin: boolean }
  | { readonly kind: 'home'; readonly platform: string };

/**
 * How a run ended: `running` (claimed, not finished), `delivered` (every target's platform returned a message id),
 * `delivery_failed` (a target failed; retried), `silent` (empty or `[SILENT]` output: nothing sent), `skipped`
 * (missed during downtime, never run), `retrying` (the model was unreachable; runs again at `retryAt`), `failed`.
 */
export type RunOutcome = 'running' | 'delivered' | 'delivery_failed' | 'silent' | 'skipped' | 'retrying' | 'failed';

/** One scheduled job (each profile has its own store, so jobs never cross profiles). */
export interface JobRow {
  /** Short random id the model and the CLI use (8 hex digits). */
  readonly id: string;
  readonly name: string;
  /** What the fresh session is asked; for a script job, the framing of its output (may be empty). */
  readonly prompt: string;
  /** A command whose output is delivered without a model call; null: a model turn. */
  readonly script: string | null;
  /** The schedule as given ("every 2h", "0 8 * * 1-5", "in 20m"). */
  readonly scheduleText: string;
  readonly schedule: Schedule;
  /** IANA zone the schedule is read in (config `timezone` when the job was created). */
  readonly timeZone: string;
  readonly targets: readonly DeliveryTarget[];
  readonly state: JobState;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The next scheduled time (null: none left, or paused one-shot that passed). */
  readonly nextRunAt: number | null;
  /** The scheduled time of the newest run claimed (null: never run). */
  readonly lastRunAt: number | null;
  /** That run's outcome, kept current by finishRun / retries. */
  readonly lastOutcome: RunOutcome | null;
}

/** What `createJob` takes (the caller parsed the schedule and computed the first `nextRunAt`). */
export interface NewJob {
  readonly name: string;
  readonly prompt: string;
  readonly script?: string | null;
  readonly scheduleText: string;
  readonly schedule: Schedule;
  readonly timeZone: string;
  readonly targets: readonly DeliveryTarget[];
  readonly nextRunAt: number | null;
  /** Defaults to `active`. */
  readonly state?: JobState;
}

/** What `updateJob` may change; fields left out stay. A new schedule needs its new `nextRunAt` too. */
export interface JobChanges {
  readonly name?: string;
  readonly prompt?: string;
  readonly script?: string | null;
  readonly scheduleText?: string;
  readonly schedule?: Schedule;
  readonly timeZone?: string;
  readonly targets?: readonly DeliveryTarget[];
  readonly nextRunAt?: number | null;
}

/** One target's delivery of a run: the platform's message ids (proof) or the error. Upserted per target on retry. */
export interface DeliveryRecord {
  readonly runId: number;
  /** The target's key, e.g. "telegram:12345" or "slack:C1:1700.1" or "home:telegram" (unique within a run). */
  readonly target: string;
  readonly platform: string;
  readonly chatId: string;
  readonly threadId: string | null;
  /** Message ids the platform returned, in order; empty when it failed. */
  readonly messageIds: readonly string[];
  readonly error: string | null;
  /** Delivery attempts to this target. */
  readonly attempts: number;
  readonly updatedAt: number;
}

/** One run of a job (a claimed scheduled time, or a record of skipped ones). */
export interface JobRunRow {
  readonly id: number;
  readonly jobId: string;
  /** The scheduled time it is for (unique per job: claiming is one INSERT that can succeed only once). */
  readonly scheduledFor: number;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly outcome: RunOutcome;
  readonly error: string | null;
  /** The fresh session the run used (null: script job, skipped, or not started yet). */
  readonly sessionId: string | null;
  /** Times it was started (1 on claim; each claimRetry adds one). */
  readonly attempts: number;
  /** Attempts whose model was unreachable (0 until one was; finishRun's `modelAttempts` sets it): the model retries' own count. */
  readonly modelAttempts: number;
  /** When a `retrying` or `delivery_failed` run is due again (null: not waiting). */
  readonly retryAt: number | null;
  /** For a `skipped` record: how many scheduled times it stands for, and the newest of them (`scheduledFor` is the oldest). */
  readonly skippedCount: number | null;
  readonly skippedUntil: number | null;
  readonly deliveries: readonly DeliveryRecord[];
}

/** The chat a platform's `home` target means (set with /sethome in it). */
export interface HomeChannel {
  readonly platform: string;
  readonly chat: ChatRef;
  readonly setAt: number;
}

/** A chat the profile talks with (a sender it lets in wrote there): a valid delivery target. */
export interface KnownChat {
  readonly platform: string;
  readonly chat: ChatRef;
  /** When its newest message arrived. */
  readonly lastAt: number;
  /** Who wrote its newest message (display name, else @username), when known: how `send_message` lists it. */
  readonly title?: string;
}
