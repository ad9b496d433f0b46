import type { JobRow, JobRunRow } from '../store/job-types.js';
import { DELIVERY_GIVE_UP_MS, deliverToTarget } from './run-job.js';
import { resolveTargets } from './run-targets.js';
import type { SchedulerDeps } from './run-types.js';
import { missedNotice } from './missed.js';

/**
 * Tells a missed one-shot's targets that it was missed, once: each target's notice is journaled like a job's delivery
 * (a restart mid-send finds the part sent) and recorded as a delivery of the `skipped` run; a target already told is
 * left out. Targets that cannot be told now (no home channel, the platform refused) keep the error and are tried again
 * at the next start, for a day.
 */
export async function tellMissed(params: { deps: SchedulerDeps; job: JobRow; run: JobRunRow }): Promise<void> {
  const { deps, job, run } = params;
  const { store, clock } = deps;
  if (clock.now() - run.startedAt > DELIVERY_GIVE_UP_MS) return;
  const told = new Set(run.deliveries.filter((d) => d.messageIds.length > 0).map((d) => d.target));
  const text = missedNotice({ job, run });
  for (const target of resolveTargets({ store, targets: job.targets })) {
    if (told.has(target.key)) continue;
    const error = await deliverToTarget({ deps, run, target, text });
    if (error === null) deps.logger.info({ jobId: job.id, target: target.key }, 'job: told the chat about a missed one-shot');
    else deps.logger.warn({ jobId: job.id, target: target.key, error }, 'job: could not tell a chat about a missed one-shot');
  }
}
