/**
 * A parsed job schedule. Times are epoch milliseconds; wall-clock forms (cron, local one-shots) are read in the
 * job's IANA time zone, which is kept with the job, not here.
 */
export type Schedule = CronSchedule | IntervalSchedule | OnceSchedule;

/** The kinds a schedule can be (kept in the store's `schedule_kind` column). */
export type ScheduleKind = Schedule['kind'];

/** A 5-field cron expression (minute hour day-of-month month day-of-week) or a nickname such as `@daily`. */
export interface CronSchedule {
  readonly kind: 'cron';
  /** The expression as given, whitespace collapsed. */
  readonly expression: string;
}

/** A fixed interval ("every 2h"), anchored so runs never drift: anchor + k * everyMs for k >= 1. */
export interface IntervalSchedule {
  readonly kind: 'interval';
  readonly everyMs: number;
  /** When the interval was set (the job's creation, or the edit that changed its schedule). */
  readonly anchorMs: number;
}

/** One run at a fixed instant ("2026-12-02 09:00", "in 20m": a relative time is resolved when parsed). */
export interface OnceSchedule {
  readonly kind: 'once';
  readonly atMs: number;
}

/** What `parseSchedule` returns: the schedule, or a one-line error for the model or the user that lists the accepted forms. */
export type ScheduleParseResult = { readonly ok: true; readonly schedule: Schedule } | { readonly ok: false; readonly error: string };
