import type { ChatRef } from '../core/adapter.js';
import type { DeliveryRecord, HomeChannel, KnownChat, JobChanges, JobRow, JobRunRow, JobState, NewJob, RunOutcome } from './job-types.js';

/** The scheduled-jobs part of the Store (migration 6); see src/store/job-types.ts for how a scheduler uses it. */
export interface JobStore {
  // --- scheduled jobs (times in ms since the epoch; types in src/store/job-types.ts) ---
  /** Stores a new job with a fresh id (state `active` unless given). */
  createJob(params: NewJob): JobRow;
  /** Changes a job's fields; undefined when there is no such job. */
  updateJob(params: { jobId: string; changes: JobChanges }): JobRow | undefined;
  /** Sets a job's state (pause, resume, done, failed), and its next run when given; undefined when there is no such job. */
  setJobState(params: { jobId: string; state: JobState; nextRunAt?: number | null }): JobRow | undefined;
  /** One job. */
  job(params: { jobId: string }): JobRow | undefined;
  /** Jobs oldest first (jobs created in the same millisecond by id); all states unless some are given. */
  listJobs(params: { states?: readonly JobState[] }): JobRow[];
  /** Removes a job with its runs and their delivery records; false when there was none. */
  removeJob(params: { jobId: string }): boolean;
  /** Active jobs whose next run is at or before `now`, soonest first (plan each with planCatchUp, then claimRun). */
  dueJobs(params: { now: number }): JobRow[];
  /**
   * Claims one scheduled time of a job: inserts its run (`running`, started at `now`) and, in the same transaction,
   * sets the job's next run to `nextRunAt` and its last run to `scheduledFor`. Undefined, changing nothing, when that
   * time was claimed before (by this or another process, or before a crash) or the job does not exist.
   */
  claimRun(params: { jobId: string; scheduledFor: number; now: number; nextRunAt: number | null }): JobRunRow | undefined;
  /** Records the session a run's turn uses. */
  setRunSession(params: { runId: number; sessionId: string }): void;
  /**
   * Ends a run (or an attempt of it) with its outcome and error; `retryAt` (for `retrying` or `delivery_failed`)
   * makes it come back from dueRetries. The job's last outcome follows when this is its newest run.
   */
  finishRun(params: {
    runId: number;
    outcome: Exclude<RunOutcome, 'running' | 'skipped'>;
    error?: string | null;
    retryAt?: number | null;
    /** The run's model-unreachable attempts so far, this one included (left as it is when absent). */
    modelAttempts?: number;
    now: number;
  }): JobRunRow | undefined;
  /** Runs waiting for a retry whose `retryAt` is at or before `now` (of active jobs), soonest first. */
  dueRetries(params: { now: number }): JobRunRow[];
  /** Takes a waiting run back to `running` (one more attempt); undefined when another caller took it first or it is not waiting. */
  claimRetry(params: { runId: number; now: number }): JobRunRow | undefined;
  /** Runs left `running` (the process died during them; their turn is replayed by the inbox journal), oldest first. */
  openRuns(): JobRunRow[];
  /** Records one target's delivery of a run: its message ids, or its error (upsert per target, counting attempts). */
  recordDelivery(params: {
    runId: number;
    target: string;
    platform: string;
    chatId: string;
    threadId?: string | null;
    messageIds: readonly string[];
    error?: string | null;
    now: number;
  }): DeliveryRecord;
  /** A job's runs, newest scheduled time first, with their deliveries. */
  runsOf(params: { jobId: string; limit: number }): JobRunRow[];
  /**
   * Records `count` missed scheduled times from `from` to `to` as one `skipped` run (at `from`) and, when given, the
   * job's next run, in one transaction; undefined when that record exists already (a replay). `reason` (why they were
   * not run, e.g. "past the catch-up window of 1h") is kept as the run's error.
   */
  recordSkipped(params: { jobId: string; from: number; to: number; count: number; reason?: string; now: number; nextRunAt?: number | null }): JobRunRow | undefined;
  /** Sets the platform's home channel (/sethome), replacing the old one. */
  setHomeChannel(params: { platform: string; chat: ChatRef }): HomeChannel;
  /** The platform's home channel, if set. */
  homeChannel(params: { platform: string }): HomeChannel | undefined;
  /** Every platform's home channel, by platform. */
  homeChannels(): HomeChannel[];
  /** The chats (platform, chat, thread) senders the profile lets in wrote from, newest first, at most `limit` (from the inbox). */
  knownChats(params: { limit: number }): KnownChat[];
}
