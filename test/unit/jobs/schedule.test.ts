import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSchedule, scheduleFromJson, SCHEDULE_FORMS } from '../../../src/util/schedule/schedule.js';
import { describeSchedule } from '../../../src/jobs/schedule-describe.js';
import { nextRun } from '../../../src/jobs/schedule-next.js';
import type { Schedule } from '../../../src/util/schedule/types.js';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const NOW = Date.parse('2026-12-01T10:00:00Z');
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

/** Parses and expects success. */
function parsed(text: string, timeZone = BERLIN, now = NOW): Schedule {
  const result = parseSchedule({ text, timeZone, now });
  if (!result.ok) assert.fail(`"${text}" was refused: ${result.error}`);
  return result.schedule;
}

/** Parses and expects a refusal; returns its text. */
function refused(text: string, timeZone = BERLIN, now = NOW): string {
  const result = parseSchedule({ text, timeZone, now });
  if (result.ok) assert.fail(`"${text}" was accepted as ${JSON.stringify(result.schedule)}`);
  assert.ok(!result.error.includes('\n'), 'one line');
  assert.ok(result.error.includes(SCHEDULE_FORMS), 'says what is accepted');
  return result.error;
}

describe('parseSchedule: cron', () => {
  test('a 5-field expression is kept (whitespace collapsed) and described with its zone', () => {
    const schedule = parsed('  0 8   * * 1-5 ');
    assert.deepEqual(schedule, { kind: 'cron', expression: '0 8 * * 1-5' });
    assert.equal(describeSchedule({ schedule, timeZone: BERLIN }), 'every weekday at 08:00 (Europe/Berlin)');
  });

  test('names and nicknames are accepted', () => {
    assert.deepEqual(parsed('30 7 * * MON-FRI'), { kind: 'cron', expression: '30 7 * * MON-FRI' });
    assert.deepEqual(parsed('@daily'), { kind: 'cron', expression: '@daily' });
  });

  test('6 fields (seconds) and 7 fields are refused, saying cron has 5', () => {
    assert.match(refused('0 0 8 * * *'), /6 fields, a cron expression has 5 \(a seconds or year field is not supported/);
    assert.match(refused('0 0 8 * * * 2027'), /7 fields/);
    assert.match(refused('0 8 * *'), /4 fields/);
  });

  test('an out-of-range field is refused with croner’s reason', () => {
    assert.match(refused('61 * * * *'), /not a valid cron expression \(Invalid value for minute: 61\)/);
  });

  test('an expression that never runs (February 30) is refused', () => {
    assert.match(refused('0 0 30 2 *'), /"0 0 30 2 \*" never runs/);
  });

  test('day-of-month and day-of-week combine with OR, as in Vixie cron', () => {
    const schedule = parsed('0 8 13 * 5');
    const thursday12th = Date.parse('2026-11-12T12:00:00Z');
    // Friday 2026-11-13 is both; then Friday 20th (a Friday, not the 13th) must follow, not 2027-08-13.
    const first = nextRun({ schedule, after: thursday12th, timeZone: 'UTC' });
    assert.equal(iso(first), '2026-11-13T08:00:00.000Z');
    assert.equal(iso(nextRun({ schedule, after: first ?? 0, timeZone: 'UTC' })), '2026-11-20T08:00:00.000Z');
  });

  test('an unknown time zone is refused, not thrown', () => {
    const result = parseSchedule({ text: '2026-12-02 09:00', timeZone: 'Mars/Olympus', now: NOW });
    assert.deepEqual(result, { ok: false, error: '"Mars/Olympus" is not a time zone (use an IANA name such as "Europe/Berlin" or "UTC").' });
  });

  test('words are not a schedule: the model must send cron for "every weekday at 8"', () => {
    assert.match(refused('every weekday at 8'), /"weekday at 8" is not a duration \(for times of day or weekdays send cron\)/);
    assert.match(refused('tomorrow morning'), /"tomorrow morning" is not a schedule/);
    refused('');
  });
});

describe('parseSchedule: intervals and delays', () => {
  test('every form of interval, anchored at now', () => {
    const cases: [string, number][] = [
      ['every 2h', 7_200_000],
      ['every 30m', 1_800_000],
      ['every 1d', 86_400_000],
      ['every 90 minutes', 5_400_000],
      ['Every 1h 30m', 5_400_000],
      ['every hour', 3_600_000],
      ['every 2 weeks', 1_209_600_000],
    ];
    for (const [text, everyMs] of cases) assert.deepEqual(parsed(text), { kind: 'interval', everyMs, anchorMs: NOW }, text);
  });

  test('seconds, zero, too long and unknown units are refused', () => {
    assert.match(refused('every 30s'), /seconds are too fine/);
    assert.match(refused('every 0m'), /shortest interval or delay is 1 minute/);
    assert.match(refused('every 400d'), /longest/);
    assert.match(refused('every 3 fortnights'), /"fortnights" is not a unit/);
  });

  test('a delay is a one-shot resolved against now', () => {
    assert.deepEqual(parsed('in 20m'), { kind: 'once', atMs: NOW + 20 * 60_000 });
    assert.deepEqual(parsed('in 2 hours'), { kind: 'once', atMs: NOW + 2 * 3_600_000 });
    assert.match(refused('in a while'), /not a duration/);
  });
});

describe('parseSchedule: absolute one-shots', () => {
  test('a local time is read in the job’s zone', () => {
    assert.equal(iso((parsed('2026-12-02 09:00') as { atMs: number }).atMs), '2026-12-02T08:00:00.000Z');
    assert.equal(iso((parsed('2026-12-02T09:00', NEW_YORK) as { atMs: number }).atMs), '2026-12-02T14:00:00.000Z');
  });

  test('an ISO time with an offset is that instant in any zone', () => {
    assert.equal(iso((parsed('2026-12-02T09:00:00-05:00') as { atMs: number }).atMs), '2026-12-02T14:00:00.000Z');
    assert.equal(iso((parsed('2026-12-02T09:00:00Z', NEW_YORK) as { atMs: number }).atMs), '2026-12-02T09:00:00.000Z');
    assert.equal(iso((parsed('2026-12-02 09:00+0530') as { atMs: number }).atMs), '2026-12-02T03:30:00.000Z');
  });

  test('a past time, an impossible date and a date without a time are refused', () => {
    assert.match(refused('2026-11-30 09:00'), /is in the past/);
    assert.match(refused('2026-02-30 09:00'), /not a valid date and time/);
    assert.match(refused('2026-12-02 24:00'), /not a valid date and time/);
    assert.match(refused('2026-12-02'), /has no time of day/);
    assert.match(refused('2026-12-2 9am'), /form 2026-12-02 09:00/);
  });

  test('DST in Europe/Berlin: a time in the spring gap moves past it, a repeated time is its first occurrence', () => {
    const early = Date.parse('2026-01-01T00:00:00Z');
    // 2026-03-29 02:00 CET -> 03:00 CEST: 02:30 does not exist, it is 03:30 CEST.
    assert.equal(iso((parsed('2026-03-29 02:30', BERLIN, early) as { atMs: number }).atMs), '2026-03-29T01:30:00.000Z');
    assert.equal(iso((parsed('2026-03-29 03:00', BERLIN, early) as { atMs: number }).atMs), '2026-03-29T01:00:00.000Z');
    // 2026-10-25 03:00 CEST -> 02:00 CET: 02:30 happens twice; the first (CEST) is meant.
    assert.equal(iso((parsed('2026-10-25 02:30', BERLIN, early) as { atMs: number }).atMs), '2026-10-25T00:30:00.000Z');
    assert.equal(iso((parsed('2026-10-25 03:30', BERLIN, early) as { atMs: number }).atMs), '2026-10-25T02:30:00.000Z');
  });

  test('DST in America/New_York: the same rules', () => {
    const early = Date.parse('2026-01-01T00:00:00Z');
    // 2026-03-08 02:00 EST -> 03:00 EDT.
    assert.equal(iso((parsed('2026-03-08 02:30', NEW_YORK, early) as { atMs: number }).atMs), '2026-03-08T07:30:00.000Z');
    // 2026-11-01 02:00 EDT -> 01:00 EST: 01:30 twice, the EDT one first.
    assert.equal(iso((parsed('2026-11-01 01:30', NEW_YORK, early) as { atMs: number }).atMs), '2026-11-01T05:30:00.000Z');
    assert.equal(iso((parsed('2026-11-01 00:30', NEW_YORK, early) as { atMs: number }).atMs), '2026-11-01T04:30:00.000Z');
  });
});

describe('nextRun', () => {
  test('cron runs at the wall-clock time in the job’s zone across DST', () => {
    const schedule: Schedule = { kind: 'cron', expression: '0 9 * * *' };
    assert.equal(iso(nextRun({ schedule, after: Date.parse('2026-03-27T12:00:00Z'), timeZone: BERLIN })), '2026-03-28T08:00:00.000Z');
    assert.equal(iso(nextRun({ schedule, after: Date.parse('2026-03-28T12:00:00Z'), timeZone: BERLIN })), '2026-03-29T07:00:00.000Z');
    assert.equal(iso(nextRun({ schedule, after: Date.parse('2026-03-28T12:00:00Z'), timeZone: NEW_YORK })), '2026-03-28T13:00:00.000Z');
  });

  test('cron is strictly after `after`, and weekdays skip the weekend', () => {
    const schedule: Schedule = { kind: 'cron', expression: '0 8 * * 1-5' };
    const friday = Date.parse('2026-12-04T07:00:00Z'); // 08:00 in Berlin
    assert.equal(iso(nextRun({ schedule, after: friday, timeZone: BERLIN })), '2026-12-07T07:00:00.000Z');
  });

  test('a cron time in the New York spring gap runs right after the gap, once', () => {
    const schedule: Schedule = { kind: 'cron', expression: '30 2 * * *' };
    const first = nextRun({ schedule, after: Date.parse('2026-03-07T12:00:00Z'), timeZone: NEW_YORK });
    assert.equal(iso(first), '2026-03-08T07:00:00.000Z'); // 03:00 EDT
    assert.equal(iso(nextRun({ schedule, after: first ?? 0, timeZone: NEW_YORK })), '2026-03-09T06:30:00.000Z');
  });

  test('an interval is anchored, so asking late does not drift it', () => {
    const schedule: Schedule = { kind: 'interval', everyMs: 7_200_000, anchorMs: NOW };
    assert.equal(nextRun({ schedule, after: NOW, timeZone: BERLIN }), NOW + 7_200_000);
    assert.equal(nextRun({ schedule, after: NOW + 7_200_000, timeZone: BERLIN }), NOW + 14_400_000);
    assert.equal(nextRun({ schedule, after: NOW + 7_200_000 + 5 * 60_000, timeZone: BERLIN }), NOW + 14_400_000);
    assert.equal(nextRun({ schedule, after: NOW - 1_000, timeZone: BERLIN }), NOW + 7_200_000);
  });

  test('a one-shot has one run, then none', () => {
    const schedule: Schedule = { kind: 'once', atMs: NOW + 60_000 };
    assert.equal(nextRun({ schedule, after: NOW, timeZone: BERLIN }), NOW + 60_000);
    assert.equal(nextRun({ schedule, after: NOW + 60_000, timeZone: BERLIN }), undefined);
  });
});

describe('describeSchedule', () => {
  test('common cron shapes, intervals and one-shots read as words with the zone', () => {
    const d = (schedule: Schedule, timeZone = BERLIN): string => describeSchedule({ schedule, timeZone });
    assert.equal(d({ kind: 'cron', expression: '30 7 * * *' }), 'every day at 07:30 (Europe/Berlin)');
    assert.equal(d({ kind: 'cron', expression: '0 18 * * 1' }), 'every Monday at 18:00 (Europe/Berlin)');
    assert.equal(d({ kind: 'cron', expression: '0 9 * * SAT,SUN' }), 'every Saturday and Sunday at 09:00 (Europe/Berlin)');
    assert.equal(d({ kind: 'cron', expression: '15 * * * *' }), 'every hour at :15 (Europe/Berlin)');
    assert.equal(d({ kind: 'cron', expression: '*/5 9-17 * * 1-5' }), 'cron "*/5 9-17 * * 1-5" (Europe/Berlin)');
    assert.equal(d({ kind: 'interval', everyMs: 5_400_000, anchorMs: NOW }), 'every 90 minutes (from 2026-12-01 11:00 Europe/Berlin)');
    assert.equal(d({ kind: 'interval', everyMs: 7_200_000, anchorMs: NOW }, 'UTC'), 'every 2 hours (from 2026-12-01 10:00 UTC)');
    assert.equal(d({ kind: 'once', atMs: Date.parse('2026-12-02T08:00:00Z') }), 'once at 2026-12-02 09:00 (Europe/Berlin)');
  });
});

describe('scheduleFromJson', () => {
  test('round-trips every kind and refuses damaged JSON', () => {
    for (const schedule of [parsed('0 8 * * 1-5'), parsed('every 2h'), parsed('in 20m')]) {
      assert.deepEqual(scheduleFromJson({ json: JSON.stringify(schedule) }), schedule);
    }
    assert.equal(scheduleFromJson({ json: '{"kind":"interval","everyMs":0,"anchorMs":1}' }), undefined);
    assert.equal(scheduleFromJson({ json: '{"kind":"cron"' }), undefined);
    assert.equal(scheduleFromJson({ json: 'null' }), undefined);
  });
});
