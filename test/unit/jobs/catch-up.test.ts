import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_MISSED_ENUMERATED, modelRetryDelay, planCatchUp } from '../../../src/jobs/catch-up.js';
import type { Schedule } from '../../../src/util/schedule/types.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const HOURLY: Schedule = { kind: 'cron', expression: '0 * * * *' };
const T = Date.parse('2026-12-01T10:00:00Z');
const base = { timeZone: 'Europe/Berlin', lastScheduledFor: null, catchUpWindowMs: HOUR };

describe('planCatchUp', () => {
  test('not due yet: nothing runs, nothing is skipped', () => {
    const plan = planCatchUp({ ...base, schedule: HOURLY, nextRunAt: T, now: T - 1_000 });
    assert.deepEqual(plan, { runFor: undefined, skipped: undefined, nextRunAt: T });
  });

  test('killed one second before the due time, restarted two minutes after: that time runs once, now', () => {
    const plan = planCatchUp({ ...base, schedule: HOURLY, nextRunAt: T, now: T + 2 * MINUTE });
    assert.deepEqual(plan, { runFor: T, skipped: undefined, nextRunAt: T + HOUR });
  });

  test('a 3-hour downtime over an hourly job: the newest missed time runs, the two before it are skipped', () => {
    // Down from 09:30 to 12:30: 10:00, 11:00 and 12:00 were missed.
    const plan = planCatchUp({ ...base, schedule: HOURLY, nextRunAt: T, now: T + 2.5 * HOUR });
    assert.deepEqual(plan, {
      runFor: T + 2 * HOUR,
      skipped: { count: 2, from: T, to: T + HOUR, countIsLowerBound: false },
      nextRunAt: T + 3 * HOUR,
    });
  });

  test('a miss older than the window is skipped, not run', () => {
    const daily: Schedule = { kind: 'cron', expression: '0 11 * * *' }; // 10:00 UTC in Berlin's winter
    const plan = planCatchUp({ ...base, schedule: daily, nextRunAt: T, now: T + 2 * HOUR });
    assert.deepEqual(plan, {
      runFor: undefined,
      skipped: { count: 1, from: T, to: T, countIsLowerBound: false },
      nextRunAt: T + 24 * HOUR,
    });
  });

  test('the window follows cron.catch_up_window', () => {
    const plan = planCatchUp({ ...base, schedule: HOURLY, nextRunAt: T, now: T + 20 * MINUTE, catchUpWindowMs: 10 * MINUTE });
    assert.equal(plan.runFor, undefined);
    assert.equal(plan.skipped?.count, 1);
  });

  test('times already claimed (up to lastScheduledFor) are neither run nor skipped again', () => {
    const plan = planCatchUp({ ...base, schedule: HOURLY, nextRunAt: T, lastScheduledFor: T, now: T + 2 * MINUTE });
    assert.deepEqual(plan, { runFor: undefined, skipped: undefined, nextRunAt: T + HOUR });
    const later = planCatchUp({ ...base, schedule: HOURLY, nextRunAt: T, lastScheduledFor: T, now: T + HOUR + MINUTE });
    assert.deepEqual(later, { runFor: T + HOUR, skipped: undefined, nextRunAt: T + 2 * HOUR });
  });

  test('an interval job counts its misses on its anchor', () => {
    const every: Schedule = { kind: 'interval', everyMs: 30 * MINUTE, anchorMs: T - 30 * MINUTE };
    const plan = planCatchUp({ ...base, schedule: every, nextRunAt: T, now: T + 5 * HOUR + 10 * MINUTE });
    assert.deepEqual(plan, {
      runFor: T + 5 * HOUR,
      skipped: { count: 10, from: T, to: T + 4.5 * HOUR, countIsLowerBound: false },
      nextRunAt: T + 5.5 * HOUR,
    });
  });

  test('a one-shot missed by more than the window is skipped and has no next run', () => {
    const once: Schedule = { kind: 'once', atMs: T };
    assert.deepEqual(planCatchUp({ ...base, schedule: once, nextRunAt: T, now: T + 3 * HOUR }), {
      runFor: undefined,
      skipped: { count: 1, from: T, to: T, countIsLowerBound: false },
      nextRunAt: undefined,
    });
    assert.deepEqual(planCatchUp({ ...base, schedule: once, nextRunAt: T, now: T + 5 * MINUTE }), {
      runFor: T,
      skipped: undefined,
      nextRunAt: undefined,
    });
  });

  test('a job with no next run has nothing to do', () => {
    assert.deepEqual(planCatchUp({ ...base, schedule: HOURLY, nextRunAt: null, now: T }), {
      runFor: undefined,
      skipped: undefined,
      nextRunAt: undefined,
    });
  });

  test('a minute job down for a month: bounded work, one run of the newest minute, a lower-bound count', () => {
    const minutely: Schedule = { kind: 'cron', expression: '* * * * *' };
    const now = T + 30 * 24 * HOUR + 30_000;
    const plan = planCatchUp({ ...base, schedule: minutely, nextRunAt: T, now });
    assert.equal(plan.runFor, T + 30 * 24 * HOUR);
    assert.equal(plan.nextRunAt, T + 30 * 24 * HOUR + MINUTE);
    assert.equal(plan.skipped?.countIsLowerBound, true);
    assert.equal(plan.skipped?.count, MAX_MISSED_ENUMERATED);
    assert.equal(plan.skipped?.to, T + 30 * 24 * HOUR - MINUTE);
  });
});

describe('modelRetryDelay', () => {
  test('5, 15 and 30 minutes, then give up', () => {
    assert.deepEqual([1, 2, 3, 4].map((retry) => modelRetryDelay({ retry })), [5 * MINUTE, 15 * MINUTE, 30 * MINUTE, undefined]);
  });
});
