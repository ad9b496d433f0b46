import type { JobStore } from '../store/job-store.js';
import type { JobRow, JobRunRow } from '../store/job-types.js';
import { describeSchedule } from './schedule-describe.js';
import { describeTarget } from './targets.js';
import { formatWallTime } from '../util/schedule/zoned-time.js';
import { isMissed, missedText, shownState } from './missed.js';

/** A time as listings show it: "2026-12-02 09:00 (Europe/Berlin)". */
export function whenText(params: { atMs: number; timeZone: string }): string {
  return `${formatWallTime(params)} (${params.timeZone})`;
}

/** A run's error for a listing: the run's own, else the first failed delivery's. */
function runError(params: { run: JobRunRow | undefined }): string | undefined {
  const { run } = params;
  if (run === undefined) return undefined;
  if (run.error !== null && run.error !== '') return run.error;
  return run.deliveries.find((d) => d.error !== null)?.error ?? undefined;
}

/** The "last run" part: "2026-12-02 09:00 (UTC) delivered", "… delivery_failed: 500 from telegram", "never". */
function lastText(params: { job: JobRow; store: Pick<JobStore, 'runsOf'> }): string {
  const { job } = params;
  if (isMissed({ job })) {
    const run = params.store.runsOf({ jobId: job.id, limit: 1 })[0];
    return run?.outcome === 'skipped' ? `missed, ${missedText({ job, run })}` : 'missed';
  }
  if (job.lastRunAt === null) return 'never';
  const error = job.lastOutcome === 'delivery_failed' || job.lastOutcome === 'failed' || job.lastOutcome === 'retrying'
    ? runError({ run: params.store.runsOf({ jobId: job.id, limit: 1 })[0] })
    : undefined;
  return `${formatWallTime({ atMs: job.lastRunAt, timeZone: job.timeZone })} ${job.lastOutcome ?? 'running'}${error !== undefined ? `: ${error}` : ''}`;
}

/** One job in full: id, name, state, schedule in words with its zone, next and last run with outcome, targets. */
export function jobText(params: { job: JobRow; store: Pick<JobStore, 'runsOf'> }): string {
  const { job } = params;
  const next = job.nextRunAt === null || job.state !== 'active' ? (job.state === 'paused' ? 'paused' : 'none') : formatWallTime({ atMs: job.nextRunAt, timeZone: job.timeZone });
  return [
    `${job.id} "${job.name}" [${shownState({ job })}]`,
    `  schedule: ${describeSchedule({ schedule: job.schedule, timeZone: job.timeZone })} — "${job.scheduleText}"`,
    `  next run: ${next}; last run: ${lastText(params)}`,
    `  delivers to: ${job.targets.map((target) => describeTarget({ target })).join(', ')}`,
    ...(job.script !== null ? [`  script: ${job.script}`] : []),
    `  prompt: ${job.prompt}`,
  ].join('\n');
}

/** Every job of the profile in full, or a line saying there are none. */
export function jobsText(params: { store: Pick<JobStore, 'listJobs' | 'runsOf'> }): string {
  const jobs = params.store.listJobs({});
  if (jobs.length === 0) return 'No scheduled jobs.';
  return jobs.map((job) => jobText({ job, store: params.store })).join('\n\n');
}

/** Short listing for chat (/cron): one line per job, `maxChars` at most (SMS), "… N more" when cut. */
export function jobsShortText(params: { store: Pick<JobStore, 'listJobs'>; maxChars: number }): string {
  const jobs = params.store.listJobs({});
  if (jobs.length === 0) return 'No scheduled jobs. Ask the agent ("remind me at 9 to …") to make one.';
  const lines = jobs.map((job) => {
    const next = job.state !== 'active' || isMissed({ job }) ? shownState({ job }) : job.nextRunAt === null ? 'no next run' : `next ${formatWallTime({ atMs: job.nextRunAt, timeZone: job.timeZone })}`;
    const last = job.lastOutcome !== null && !isMissed({ job }) ? `, last ${job.lastOutcome}` : '';
    return `${job.id} ${job.name}: ${describeSchedule({ schedule: job.schedule, timeZone: job.timeZone })}; ${next}${last}`;
  });
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const tail = `… ${lines.length - i} more (hermes cron list)`;
    const room = params.maxChars - used - (i < lines.length - 1 ? tail.length + 1 : 0);
    if (line.length + (out.length > 0 ? 1 : 0) > room) {
      out.push(tail);
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

/** A job's runs, newest first: when, outcome (with error), attempts, and per target the message ids or the error. */
export function historyText(params: { job: JobRow; runs: readonly JobRunRow[] }): string {
  const { job, runs } = params;
  if (runs.length === 0) return `${job.id} "${job.name}": no runs yet.`;
  const lines = runs.map((run) => {
    const when = formatWallTime({ atMs: run.scheduledFor, timeZone: job.timeZone });
    if (run.outcome === 'skipped') {
      const until = run.skippedUntil !== null && run.skippedUntil !== run.scheduledFor ? ` to ${formatWallTime({ atMs: run.skippedUntil, timeZone: job.timeZone })}` : '';
      const reason = run.error !== null && run.error !== '' ? `, ${run.error}` : '';
      const told = run.deliveries.map((d) => (d.error !== null ? `telling ${d.target} failed: ${d.error}` : `told ${d.target}, message ids ${d.messageIds.join(', ')}`));
      return `${when}${until} skipped (${run.skippedCount ?? 1} missed while the gateway was down until ${formatWallTime({ atMs: run.startedAt, timeZone: job.timeZone })}${reason})${told.length > 0 ? `; ${told.join('; ')}` : ''}`;
    }
    const error = run.error !== null && run.error !== '' ? `: ${run.error}` : '';
    const deliveries = run.deliveries.map((d) => (d.error !== null ? `${d.target} failed: ${d.error}` : `${d.target} message ids ${d.messageIds.join(', ')}`));
    return `${when} ${run.outcome}${error} (attempts ${run.attempts})${deliveries.length > 0 ? `; ${deliveries.join('; ')}` : ''}`;
  });
  return [`${job.id} "${job.name}" runs (times in ${job.timeZone}), newest first:`, ...lines].join('\n');
}
