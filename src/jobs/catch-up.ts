import { Cron } from 'croner';
import { nextRun } from './schedule-next.js';
import type { Schedule } from '../util/schedule/types.js';

/** Missed times looked at one by one before the rest is only counted as "at least". */
export const MAX_MISSED_ENUMERATED = 10_000;

/** Scheduled times that were missed and are not run. */
export interface SkippedRuns {
  /** How many (a lower bound when `countIsLowerBound`). */
  readonly count: number;
  /** The oldest skipped scheduled time. */
  readonly from: number;
  /** The newest skipped scheduled time. */
  readonly to: number;
  /** True when more than MAX_MISSED_ENUMERATED were missed (a minute job down for weeks): `count` is that bound. */
  readonly countIsLowerBound: boolean;
}

/** What to do with a job whose next scheduled time has come (or passed, after downtime). */
export interface CatchUpPlan {
  /** The one scheduled time to claim and run now (the newest missed one, if within the window); undefined: none. */
  readonly runFor: number | undefined;
  /** Missed times not run (record them with `recordSkipped`); undefined when none. */
  readonly skipped: SkippedRuns | undefined;
  /** The job's next scheduled time after `now` (undefined: no more, e.g. a one-shot). */
  readonly nextRunAt: number | undefined;
}

/**
 * Decides, purely, what a job that is due does now: of the scheduled times from `nextRunAt` up to `now` (those at or
 * before `lastScheduledFor`, already claimed, are left out), at most ONE runs: the newest, when it is at most
 * `catchUpWindowMs` old. All others are skipped (recorded, never run in a burst). A job not yet due gets neither.
 * Running exactly once per scheduled time is the store's claim (`claimRun`): this only chooses which time.
 */
export function planCatchUp(params: {
  schedule: Schedule;
  timeZone: string;
  /** The job's stored next scheduled time (null: none). */
  nextRunAt: number | null;
  /** The newest scheduled time already claimed for the job (null: never run). */
  lastScheduledFor: number | null;
  now: number;
  catchUpWindowMs: number;
}): CatchUpPlan {
  const { schedule, timeZone, now, catchUpWindowMs, lastScheduledFor } = params;
  if (params.nextRunAt === null) return { runFor: undefined, skipped: undefined, nextRunAt: undefined };
  if (params.nextRunAt > now) return { runFor: undefined, skipped: undefined, nextRunAt: params.nextRunAt };
  let first: number | undefined = params.nextRunAt;
  if (lastScheduledFor !== null && first <= lastScheduledFor) first = nextRun({ schedule, after: lastScheduledFor, timeZone });
  const following = nextRun({ schedule, after: now, timeZone });
  if (first === undefined || first > now) return { runFor: undefined, skipped: undefined, nextRunAt: following };
  const missed = missedTimes({ schedule, timeZone, first, now });
  const runFor = now - missed.newest <= catchUpWindowMs ? missed.newest : undefined;
  const skippedCount = runFor === undefined ? missed.count : missed.count - 1;
  const skippedTo = runFor === undefined ? missed.newest : missed.beforeNewest;
  const skipped =
    skippedCount > 0 && skippedTo !== undefined
      ? { count: skippedCount, from: first, to: skippedTo, countIsLowerBound: missed.countIsLowerBound }
      : undefined;
  return { runFor, skipped, nextRunAt: following };
}

/** The scheduled times from `first` (due, <= now) up to `now`: how many, the newest and the one before it. */
function missedTimes(params: { schedule: Schedule; timeZone: string; first: number; now: number }): {
  count: number;
  newest: number;
  beforeNewest: number | undefined;
  countIsLowerBound: boolean;
} {
  const { schedule, timeZone, first, now } = params;
  if (schedule.kind === 'interval') {
    const count = Math.floor((now - first) / schedule.everyMs) + 1;
    const newest = first + (count - 1) * schedule.everyMs;
    return { count, newest, beforeNewest: count > 1 ? newest - schedule.everyMs : undefined, countIsLowerBound: false };
  }
  const seen: number[] = [first];
  let at = nextRun({ schedule, after: first, timeZone });
  while (at !== undefined && at <= now) {
    if (seen.length >= MAX_MISSED_ENUMERATED && schedule.kind === 'cron') {
      // Too many to walk: the newest two come from croner's backwards search; the count is a lower bound.
      const [newest, beforeNewest] = new Cron(schedule.expression, { mode: '5-part', timezone: timeZone, paused: true })
        .previousRuns(2, new Date(now + 1))
        .map((d) => d.getTime());
      return { count: seen.length + 1, newest: newest ?? at, beforeNewest, countIsLowerBound: true };
    }
    seen.push(at);
    at = nextRun({ schedule, after: at, timeZone });
  }
  return { count: seen.length, newest: seen.at(-1) ?? first, beforeNewest: seen.at(-2), countIsLowerBound: false };
}

/** Model-unreachable retry delays (issue 14 item 4): 5, 15, then 30 minutes; after the third the run is failed. */
export const MODEL_RETRY_DELAYS_MS: readonly number[] = [5 * 60_000, 15 * 60_000, 30 * 60_000];

/** The delay before retry number `retry` (1-based) of a run whose model was unreachable; undefined: give up (failed). */
export function modelRetryDelay(params: { retry: number }): number | undefined {
  return MODEL_RETRY_DELAYS_MS[params.retry - 1];
}
