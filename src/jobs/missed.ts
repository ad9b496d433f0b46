import type { JobRow, JobRunRow } from '../store/job-types.js';
import { formatWallTime } from '../util/schedule/zoned-time.js';

/** The catch-up window in words: "60 min", "3 h". */
function windowText(params: { ms: number }): string {
  const minutes = Math.round(params.ms / 60_000);
  return minutes >= 120 && minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

/** Why missed times were not run: the reason a `skipped` run keeps (its error column). */
export function missedReason(params: { catchUpWindowMs: number }): string {
  return params.catchUpWindowMs <= 0 ? 'the catch-up window (cron.catch_up_window) is 0' : `past the catch-up window of ${windowText({ ms: params.catchUpWindowMs })}`;
}

/**
 * True for a one-shot that never ran because its time passed while the gateway was down (beyond the catch-up window):
 * done, or still active with no next run (a crash between recording the skip and marking the job done).
 */
export function isMissed(params: { job: JobRow }): boolean {
  const { job } = params;
  const ended = job.state === 'done' || (job.state === 'active' && job.nextRunAt === null);
  return job.schedule.kind === 'once' && ended && job.lastRunAt === null && job.lastOutcome === 'skipped';
}

/** The state a listing shows: `missed` for a missed one-shot, else the stored one. */
export function shownState(params: { job: JobRow }): string {
  return isMissed(params) ? 'missed' : params.job.state;
}

/**
 * What happened to a missed time, from its `skipped` run: "due 2026-12-07 19:11, the gateway was down until 19:14, past
 * the catch-up window of 60 min" (the day is repeated only when it differs; times in the job's zone).
 */
export function missedText(params: { job: JobRow; run: JobRunRow }): string {
  const { job, run } = params;
  const due = formatWallTime({ atMs: run.scheduledFor, timeZone: job.timeZone });
  const back = formatWallTime({ atMs: run.startedAt, timeZone: job.timeZone });
  const until = back.slice(0, 10) === due.slice(0, 10) ? back.slice(11) : back;
  const reason = run.error !== null && run.error !== '' ? `, ${run.error}` : '';
  return `due ${due}, the gateway was down until ${until}${reason}`;
}

/** The note a missed one-shot's chats get once, at the start after the downtime. */
export function missedNotice(params: { job: JobRow; run: JobRunRow }): string {
  const { job } = params;
  return `Missed while offline: "${job.name}" (${missedText(params)} (${job.timeZone})), so it was not run late. Tell me if you still want it done.`;
}
