import type { JobStore } from '../store/job-store.js';
import type { TurnOrigin } from '../tools/capabilities.js';
import type { Clock } from '../core/clock.js';
import { historyText, jobText, jobsText, whenText } from './actions-format.js';
import type { JobChanges, JobRow } from '../store/job-types.js';
import { resolveTargets } from './resolve-targets.js';
import { nextRun } from './schedule-next.js';
import { parseSchedule } from '../util/schedule/schedule.js';
import { describeSchedule } from './schedule-describe.js';
import { describeTarget } from './targets.js';

/** What every job operation works with: the profile's store, the configured zone, the time, and the scheduler's wake-up. */
export interface JobActionDeps {
  readonly store: JobStore;
  /** Config `timezone` (or the host's): new and re-scheduled jobs are read in it. */
  readonly timeZone: string;
  readonly clock: Clock;
  /** Wakes the scheduler after a change (its next due time may have moved). */
  readonly poke: () => void;
}

/** What a job operation returns: the text for the model, the user or the CLI; or why it was refused. */
export type JobActionResult = { readonly ok: true; readonly text: string; readonly job?: JobRow } | { readonly ok: false; readonly error: string };

/** Longest name a job gets from its prompt when none is given. */
const NAME_FROM_PROMPT = 40;

/** "Created"/"Updated" summary: id, name, schedule in words with zone, next run, targets. */
function summary(params: { verb: string; job: JobRow }): string {
  const { job } = params;
  const next = job.nextRunAt === null ? 'no next run' : `next run ${whenText({ atMs: job.nextRunAt, timeZone: job.timeZone })}`;
  return `${params.verb} job ${job.id} "${job.name}": ${describeSchedule({ schedule: job.schedule, timeZone: job.timeZone })}; ${next}; delivers to ${job.targets.map((target) => describeTarget({ target })).join(', ')}.`;
}

/** The job, or a refusal naming the id and how to find ids. */
function jobOf(params: { deps: JobActionDeps; jobId?: string | undefined }): { ok: true; job: JobRow } | { ok: false; error: string } {
  if (params.jobId === undefined || params.jobId.trim() === '') return { ok: false, error: 'job_id is required for this action (list shows the ids).' };
  const job = params.deps.store.job({ jobId: params.jobId.trim() });
  return job === undefined ? { ok: false, error: `there is no job "${params.jobId}" (list shows the ids).` } : { ok: true, job };
}

/** Parses a schedule in the configured zone and computes its first run; a refusal lists the accepted forms. */
function scheduled(params: { deps: JobActionDeps; text: string }): { ok: true; changes: Required<Pick<JobChanges, 'scheduleText' | 'schedule' | 'timeZone' | 'nextRunAt'>> } | { ok: false; error: string } {
  const { deps } = params;
  const now = deps.clock.now();
  const parsed = parseSchedule({ text: params.text, timeZone: deps.timeZone, now });
  if (!parsed.ok) return parsed;
  const next = nextRun({ schedule: parsed.schedule, after: now, timeZone: deps.timeZone });
  if (next === undefined) return { ok: false, error: `"${params.text}" has no run after now.` };
  return { ok: true, changes: { scheduleText: params.text.trim().replace(/\s+/g, ' '), schedule: parsed.schedule, timeZone: deps.timeZone, nextRunAt: next } };
}

/** Creates a job: prompt and schedule required; name defaults to the prompt's start; deliver defaults to origin. */
export function createJobAction(params: { deps: JobActionDeps; name?: string | undefined; prompt?: string | undefined; schedule?: string | undefined; deliver?: string | undefined; origin?: TurnOrigin | undefined }): JobActionResult {
  const { deps } = params;
  const prompt = params.prompt?.trim() ?? '';
  if (prompt === '') return { ok: false, error: 'prompt is required: the self-contained instruction the job runs with.' };
  if (params.schedule === undefined || params.schedule.trim() === '') return { ok: false, error: 'schedule is required (e.g. "0 8 * * 1-5", "every 2h", "in 20m", "2026-12-02 09:00").' };
  const when = scheduled({ deps, text: params.schedule });
  if (!when.ok) return when;
  const targets = resolveTargets({ store: deps.store, deliver: params.deliver, origin: params.origin });
  if (!targets.ok) return targets;
  const name = params.name?.trim() || (prompt.length > NAME_FROM_PROMPT ? `${prompt.slice(0, NAME_FROM_PROMPT - 1)}…` : prompt);
  const job = deps.store.createJob({ name, prompt, ...when.changes, targets: targets.targets });
  deps.poke();
  return { ok: true, text: summary({ verb: 'Created', job }), job };
}

/** Changes a job's name, prompt, schedule (re-read in the configured zone) or targets; the rest stays. */
export function updateJobAction(params: { deps: JobActionDeps; jobId?: string | undefined; name?: string | undefined; prompt?: string | undefined; schedule?: string | undefined; deliver?: string | undefined; origin?: TurnOrigin | undefined }): JobActionResult {
  const { deps } = params;
  const found = jobOf({ deps, jobId: params.jobId });
  if (!found.ok) return found;
  let changes: JobChanges = {};
  if (params.name !== undefined && params.name.trim() !== '') changes = { ...changes, name: params.name.trim() };
  if (params.prompt !== undefined && params.prompt.trim() !== '') changes = { ...changes, prompt: params.prompt.trim() };
  if (params.schedule !== undefined && params.schedule.trim() !== '') {
    const when = scheduled({ deps, text: params.schedule });
    if (!when.ok) return when;
    changes = { ...changes, ...when.changes };
  }
  if (params.deliver !== undefined && params.deliver.trim() !== '') {
    const targets = resolveTargets({ store: deps.store, deliver: params.deliver, origin: params.origin });
    if (!targets.ok) return targets;
    changes = { ...changes, targets: targets.targets };
  }
  if (Object.keys(changes).length === 0) return { ok: false, error: 'nothing to change: give name, prompt, schedule or deliver.' };
  const job = deps.store.updateJob({ jobId: found.job.id, changes });
  if (job === undefined) return { ok: false, error: `there is no job "${found.job.id}" any more.` };
  // A finished one-shot given a new time runs again.
  const revived = changes.nextRunAt !== undefined && (job.state === 'done' || job.state === 'failed') ? deps.store.setJobState({ jobId: job.id, state: 'active' }) ?? job : job;
  deps.poke();
  return { ok: true, text: summary({ verb: 'Updated', job: revived }), job: revived };
}

/** Pauses a job (it keeps its schedule; resume picks up from the next time after then). */
export function pauseJobAction(params: { deps: JobActionDeps; jobId?: string | undefined }): JobActionResult {
  const found = jobOf(params);
  if (!found.ok) return found;
  if (found.job.state === 'paused') return { ok: true, text: `Job ${found.job.id} "${found.job.name}" is already paused.`, job: found.job };
  const job = params.deps.store.setJobState({ jobId: found.job.id, state: 'paused' }) ?? found.job;
  params.deps.poke();
  return { ok: true, text: `Paused job ${job.id} "${job.name}".`, job };
}

/** Resumes a paused (or finished) job at its next scheduled time after now; a one-shot whose time passed is refused. */
export function resumeJobAction(params: { deps: JobActionDeps; jobId?: string | undefined }): JobActionResult {
  const { deps } = params;
  const found = jobOf(params);
  if (!found.ok) return found;
  if (found.job.state === 'active') return { ok: true, text: `Job ${found.job.id} "${found.job.name}" is already active.`, job: found.job };
  const next = nextRun({ schedule: found.job.schedule, after: deps.clock.now(), timeZone: found.job.timeZone });
  if (next === undefined) return { ok: false, error: `job ${found.job.id} was a one-shot whose time has passed; update its schedule to run it again.` };
  const job = deps.store.setJobState({ jobId: found.job.id, state: 'active', nextRunAt: next }) ?? found.job;
  deps.poke();
  return { ok: true, text: summary({ verb: 'Resumed', job }), job };
}

/**
 * Makes a job due now: the scheduler claims and runs it like any due time (claim-based, so it runs once) and then
 * goes on with its schedule. Nothing runs here. A paused job is refused (resume it first).
 */
export function runJobAction(params: { deps: JobActionDeps; jobId?: string | undefined }): JobActionResult {
  const { deps } = params;
  const found = jobOf(params);
  if (!found.ok) return found;
  if (found.job.state === 'paused') return { ok: false, error: `job ${found.job.id} is paused; resume it first.` };
  const now = deps.clock.now();
  const job = deps.store.setJobState({ jobId: found.job.id, state: 'active', nextRunAt: now }) ?? found.job;
  deps.poke();
  return { ok: true, text: `Job ${job.id} "${job.name}" is due now: it runs in a fresh session within moments and delivers to ${job.targets.map((target) => describeTarget({ target })).join(', ')}.`, job };
}

/** Removes a job with its run history. */
export function removeJobAction(params: { deps: JobActionDeps; jobId?: string | undefined }): JobActionResult {
  const found = jobOf(params);
  if (!found.ok) return found;
  params.deps.store.removeJob({ jobId: found.job.id });
  params.deps.poke();
  return { ok: true, text: `Removed job ${found.job.id} "${found.job.name}".` };
}

/** Every job in full (schedule in words with its zone, next run, last run and outcome, targets). */
export function listJobsAction(params: { deps: JobActionDeps }): JobActionResult {
  return { ok: true, text: jobsText({ store: params.deps.store }) };
}

/** A job's runs, newest first, with outcomes and delivery message ids. */
export function jobHistoryAction(params: { deps: JobActionDeps; jobId?: string | undefined; limit?: number }): JobActionResult {
  const found = jobOf(params);
  if (!found.ok) return found;
  const runs = params.deps.store.runsOf({ jobId: found.job.id, limit: params.limit ?? 20 });
  return { ok: true, text: historyText({ job: found.job, runs }) };
}

/** One job in full. */
export function showJobText(params: { deps: JobActionDeps; job: JobRow }): string {
  return jobText({ job: params.job, store: params.deps.store });
}

/** A job operation by name: the `cronjob` tool's actions plus `history` (the CLI's). */
export type JobActionName = 'create' | 'list' | 'update' | 'pause' | 'resume' | 'run' | 'remove' | 'history';

/** Runs one job operation by name (the tool and `hermes cron` dispatch through here). */
export function jobAction(params: {
  deps: JobActionDeps;
  action: JobActionName;
  jobId?: string | undefined;
  name?: string | undefined;
  prompt?: string | undefined;
  schedule?: string | undefined;
  deliver?: string | undefined;
  origin?: TurnOrigin | undefined;
}): JobActionResult {
  const { deps, jobId } = params;
  const fields = { name: params.name, prompt: params.prompt, schedule: params.schedule, deliver: params.deliver, origin: params.origin };
  switch (params.action) {
    case 'create':
      return createJobAction({ deps, ...fields });
    case 'update':
      return updateJobAction({ deps, jobId, ...fields });
    case 'list':
      return listJobsAction({ deps });
    case 'pause':
      return pauseJobAction({ deps, jobId });
    case 'resume':
      return resumeJobAction({ deps, jobId });
    case 'run':
      return runJobAction({ deps, jobId });
    case 'remove':
      return removeJobAction({ deps, jobId });
    case 'history':
      return jobHistoryAction({ deps, jobId });
  }
}
