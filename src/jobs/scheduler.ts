import type { JobRow, JobRunRow } from '../store/job-types.js';
import { planCatchUp } from './catch-up.js';
import { isMissed, missedReason } from './missed.js';
import { tellMissed } from './missed-notice.js';
import { runAttempt } from './run-job.js';
import type { AttemptOutcome, SchedulerDeps } from './run-types.js';
import { backoffDelay } from '../util/backoff.js';

export type { SchedulerDeps } from './run-types.js';

/** Longest the loop sleeps without looking at the store (retries, and jobs another process changed, are seen by then). */
const maxSleepMs = 60_000;
/** First wait after the store failed (disk full, I/O error); doubles per failure in a row up to `maxSleepMs`. */
const storeErrorBaseMs = 5_000;

/** Outcomes after which a one-shot job with no next run is done. */
const finalOutcomes: ReadonlySet<AttemptOutcome> = new Set(['delivered', 'silent', 'failed']);

/**
 * Runs one profile's due jobs (src/store/job-types.ts has the steps): on start it finishes the runs a crash left open,
 * then at each soonest due time (or when poked: a job was created or changed) it plans catch-up, records skipped
 * times, claims and runs due ones (one run per job at a time), and takes due retries.
 */
export class Scheduler {
  private readonly deps: SchedulerDeps;
  private wake: AbortController | undefined;
  private poked = false;
  /** Runs in flight, by job id (a job runs one attempt at a time). */
  private readonly running = new Map<string, Promise<void>>();
  /** Notices of missed one-shots being sent, and the skipped runs this process told (or tried to) already. */
  private readonly telling = new Set<Promise<void>>();
  private readonly told = new Set<number>();

  constructor(deps: SchedulerDeps) {
    this.deps = deps;
  }

  /** Wakes the loop now (a job was created, changed, resumed or asked to run): it looks at the store again. */
  poke(): void {
    this.poked = true;
    this.wake?.abort();
  }

  /** The loop: resolves once `signal` aborts and the runs in flight ended (a shutdown leaves them open for the next start). */
  async run(params: { signal: AbortSignal }): Promise<void> {
    // One listener on the caller's signal, however many sleeps and runs follow.
    const local = new AbortController();
    params.signal.addEventListener('abort', () => local.abort(), { once: true });
    const { signal } = local;
    let resumed = false;
    // Store failures in a row: the loop backs off instead of retrying at once (a due job it cannot claim stays due,
    // so without this it would spin), and keeps going until the store takes reads and writes again.
    let failures = 0;
    while (!signal.aborted) {
      this.poked = false;
      let ms: number;
      try {
        if (!resumed) {
          this.resumeOpenRuns({ signal });
          // Notices a crash kept from going out before: the missed one-shots not yet told.
          this.tellMissedOneShots();
        }
        resumed = true;
        if (this.tick({ signal }).missedOneShot) this.tellMissedOneShots();
        ms = this.sleepMs();
        failures = 0;
      } catch (error) {
        ms = backoffDelay({ attempt: failures, baseMs: storeErrorBaseMs, maxMs: maxSleepMs });
        failures++;
        this.deps.logger.error({ err: error, retryInMs: ms }, 'scheduler: could not look at the due jobs; trying again soon');
      }
      if (this.poked && failures === 0) continue;
      await this.sleep({ ms, signal });
    }
    await Promise.allSettled([...this.running.values(), ...this.telling]);
  }

  /** Runs a crash left `running` again in place: their turn's journal row is replayed (or found done), never a second run. */
  private resumeOpenRuns(params: { signal: AbortSignal }): void {
    for (const run of this.deps.store.openRuns()) {
      const job = this.deps.store.job({ jobId: run.jobId });
      if (job === undefined || this.running.has(job.id)) continue;
      this.deps.logger.info({ jobId: job.id, runId: run.id }, 'finishing a job run a restart cut short');
      this.start({ job, run, signal: params.signal });
    }
  }

  /**
   * One look at the store: due jobs (catch-up planned, skipped times recorded, one time claimed) and due retries. Says
   * whether a one-shot was found missed (its time passed beyond the catch-up window while the gateway was down).
   */
  private tick(params: { signal: AbortSignal }): { missedOneShot: boolean } {
    const { store, clock } = this.deps;
    const now = clock.now();
    let missedOneShot = false;
    for (const job of store.dueJobs({ now })) {
      if (this.running.has(job.id)) continue;
      const plan = planCatchUp({ schedule: job.schedule, timeZone: job.timeZone, nextRunAt: job.nextRunAt, lastScheduledFor: job.lastRunAt, now, catchUpWindowMs: this.deps.catchUpWindowMs() });
      const nextRunAt = plan.nextRunAt ?? null;
      if (plan.skipped !== undefined) {
        // Nothing runs: every missed time was past the window; that is the reason the skipped run keeps.
        const reason = plan.runFor === undefined ? { reason: missedReason({ catchUpWindowMs: this.deps.catchUpWindowMs() }) } : {};
        store.recordSkipped({ jobId: job.id, from: plan.skipped.from, to: plan.skipped.to, count: plan.skipped.count, now, ...reason, ...(plan.runFor === undefined ? { nextRunAt } : {}) });
        this.deps.logger.info({ jobId: job.id, skipped: plan.skipped.count }, 'job: missed runs skipped (older than the catch-up window)');
      }
      if (plan.runFor === undefined) {
        if (plan.skipped === undefined) store.updateJob({ jobId: job.id, changes: { nextRunAt } });
        if (nextRunAt === null && job.schedule.kind === 'once') {
          store.setJobState({ jobId: job.id, state: 'done' });
          missedOneShot ||= plan.skipped !== undefined;
        }
        continue;
      }
      const run = store.claimRun({ jobId: job.id, scheduledFor: plan.runFor, now, nextRunAt });
      if (run === undefined) {
        // That time was claimed before (another process, or a second "run now" for the same moment): move on from it,
        // so a due time that can never be claimed again does not keep the loop from sleeping.
        store.updateJob({ jobId: job.id, changes: { nextRunAt } });
        continue;
      }
      this.start({ job: store.job({ jobId: job.id }) ?? job, run, signal: params.signal });
    }
    for (const waiting of store.dueRetries({ now })) {
      if (this.running.has(waiting.jobId)) continue;
      const job = store.job({ jobId: waiting.jobId });
      const run = job === undefined ? undefined : store.claimRetry({ runId: waiting.id, now });
      if (job !== undefined && run !== undefined) this.start({ job, run, signal: params.signal });
    }
    return { missedOneShot };
  }

  /**
   * Tells the chats of each missed one-shot not yet told (at most once per process; a notice that failed is tried again
   * at the next start): in the background, awaited by the loop's end.
   */
  private tellMissedOneShots(): void {
    const { store, logger } = this.deps;
    for (const job of store.listJobs({ states: ['done', 'active'] })) {
      if (!isMissed({ job })) continue;
      const run = store.runsOf({ jobId: job.id, limit: 1 })[0];
      if (run === undefined || run.outcome !== 'skipped' || this.told.has(run.id)) continue;
      this.told.add(run.id);
      const work = tellMissed({ deps: this.deps, job, run })
        .catch((error: unknown) => logger.error({ err: error, jobId: job.id }, 'job: telling the chat about a missed one-shot failed'))
        .finally(() => this.telling.delete(work));
      this.telling.add(work);
    }
  }

  /** Runs one attempt in the background; when it ends the loop looks again (a one-shot that finished is marked done). */
  private start(params: { job: JobRow; run: JobRunRow; signal: AbortSignal }): void {
    const { job, run } = params;
    const work = runAttempt({ deps: this.deps, job, run, signal: params.signal })
      .then((outcome) => {
        const current = this.deps.store.job({ jobId: job.id });
        if (current !== undefined && finalOutcomes.has(outcome) && current.nextRunAt === null && current.schedule.kind === 'once' && current.state === 'active') {
          // A one-shot whose model stayed unreachable is `failed` (listed as such); one that ran is `done`.
          this.deps.store.setJobState({ jobId: job.id, state: outcome === 'failed' ? 'failed' : 'done' });
        }
      })
      .catch((error: unknown) => {
        // A job removed mid-run takes its run rows with it: recording the run's end then fails, and nothing is left to finish.
        if (this.jobGone({ jobId: job.id })) {
          this.deps.logger.info({ jobId: job.id, runId: run.id }, 'job removed while its run was in flight; the run ends unrecorded');
          return;
        }
        this.deps.logger.error({ err: error, jobId: job.id, runId: run.id }, 'job run failed unexpectedly; it is finished on the next start');
      })
      .finally(() => {
        this.running.delete(job.id);
        if (!params.signal.aborted) this.poke();
      });
    this.running.set(job.id, work);
  }

  /** True when the job is no longer in the store (false when the store cannot say). */
  private jobGone(params: { jobId: string }): boolean {
    try {
      return this.deps.store.job({ jobId: params.jobId }) === undefined;
    } catch {
      return false;
    }
  }

  /** Until the soonest next run or known retry, at most `maxSleepMs`. */
  private sleepMs(): number {
    const { store, clock } = this.deps;
    const now = clock.now();
    let soonest = now + maxSleepMs;
    for (const job of store.listJobs({ states: ['active'] })) {
      if (job.nextRunAt !== null && !this.running.has(job.id)) soonest = Math.min(soonest, job.nextRunAt);
    }
    return Math.max(0, soonest - now);
  }

  /** Sleeps on the clock; a poke or the signal ends it early. */
  private async sleep(params: { ms: number; signal: AbortSignal }): Promise<void> {
    const wake = new AbortController();
    this.wake = wake;
    const onAbort = (): void => wake.abort();
    params.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.deps.clock.sleep(params.ms, wake.signal);
    } catch {
      // Woken early.
    } finally {
      params.signal.removeEventListener('abort', onAbort);
      if (this.wake === wake) this.wake = undefined;
    }
  }
}
