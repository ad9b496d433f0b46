import { Cron } from 'croner';
import { isTimeZone } from './time-zone.js';
import type { Schedule, ScheduleParseResult } from './types.js';
import { zonedInstant } from './zoned-time.js';

/** The forms a schedule may take, for every refusal (the model reads it and tries again). */
export const SCHEDULE_FORMS =
  'accepted: a 5-field cron expression ("0 8 * * 1-5" = weekdays at 08:00), an interval ("every 30m", "every 2h", ' +
  '"every 1d", "every 90 minutes"), a time ("2026-12-02 09:00", or ISO 8601 with an offset) or a delay ("in 20m", "in 2 hours")';

/** Shortest interval or delay: a job is a model turn, not a busy loop. */
export const MIN_INTERVAL_MS = 60_000;
/** Longest interval or delay (a year and a day). */
export const MAX_INTERVAL_MS = 366 * 86_400_000;

const UNIT_MS: ReadonlyMap<string, number> = new Map([
  ...['m', 'min', 'mins', 'minute', 'minutes'].map((u): [string, number] => [u, 60_000]),
  ...['h', 'hr', 'hrs', 'hour', 'hours'].map((u): [string, number] => [u, 3_600_000]),
  ...['d', 'day', 'days'].map((u): [string, number] => [u, 86_400_000]),
  ...['w', 'week', 'weeks'].map((u): [string, number] => [u, 604_800_000]),
]);
const SECOND_UNITS = new Set(['s', 'sec', 'secs', 'second', 'seconds']);

/** A refusal: what was wrong, then the accepted forms. */
function refuse(reason: string): ScheduleParseResult {
  return { ok: false, error: `${reason}; ${SCHEDULE_FORMS}.` };
}

/** "2h", "90 minutes", "1h 30m", "hour" (a bare unit is one of it) in ms, or a reason it is not a span. */
function parseSpan(text: string): number | string {
  if (UNIT_MS.has(text)) return UNIT_MS.get(text) ?? 0;
  const pieces = [...text.matchAll(/(\d+)\s*([a-z]+)\s*/g)];
  if (pieces.length === 0 || pieces.map((p) => p[0]).join('') !== text) return `"${text}" is not a duration`;
  let total = 0;
  for (const [, count, unit] of pieces) {
    if (unit !== undefined && SECOND_UNITS.has(unit)) return `seconds are too fine for a job (the shortest is 1 minute)`;
    const ms = unit === undefined ? undefined : UNIT_MS.get(unit);
    if (ms === undefined) return `"${unit ?? ''}" is not a unit (use m, h, d or w, or minutes, hours, days, weeks)`;
    total += Number(count) * ms;
  }
  if (total < MIN_INTERVAL_MS) return 'the shortest interval or delay is 1 minute';
  if (total > MAX_INTERVAL_MS) return 'the longest interval or delay is 366 days';
  return total;
}

const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Days in a month (month 1-12). */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A one-shot at an absolute time; a time without offset is read in `timeZone`. */
function parseAbsolute(match: RegExpMatchArray, text: string, timeZone: string, now: number): ScheduleParseResult {
  const [, y, mo, d, h, mi, s, offset] = match;
  const wall = { year: Number(y), month: Number(mo), day: Number(d), hour: Number(h ?? 0), minute: Number(mi ?? 0), second: Number(s ?? 0) };
  if (h === undefined) return refuse(`"${text}" has no time of day (write it as "${text} 09:00")`);
  const inRange =
    wall.month >= 1 && wall.month <= 12 && wall.day >= 1 && wall.day <= daysIn(wall.year, wall.month) &&
    wall.hour <= 23 && wall.minute <= 59 && wall.second <= 59;
  if (!inRange) return refuse(`"${text}" is not a valid date and time`);
  let atMs: number;
  if (offset === undefined) {
    atMs = zonedInstant({ wall, timeZone });
  } else {
    const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.toUpperCase() === 'Z' ? '0000' : offset.slice(1).replace(':', '').padEnd(4, '0');
    const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
    if (Number(digits.slice(0, 2)) > 14 || Number(digits.slice(2, 4)) > 59) return refuse(`"${offset}" is not a UTC offset`);
    atMs = asUtc - offsetMs;
  }
  if (atMs <= now) return refuse(`"${text}" is in the past`);
  return { ok: true, schedule: { kind: 'once', atMs } };
}

/**
 * A cron expression: exactly 5 fields (or a nickname such as @daily), validated by croner in its 5-part mode. Seconds
 * (6 fields) are refused: a job is a model turn, and 6 fields are ambiguous (seconds first, or Quartz years last).
 * Day-of-month and day-of-week combine with OR when both are set, as in Vixie cron (croner's default), which is what
 * the model has read: "0 8 13 * 5" is every 13th and every Friday. An expression that never runs is refused.
 */
function parseCron(text: string, timeZone: string, now: number): ScheduleParseResult {
  const fields = text.split(' ');
  if (!text.startsWith('@') && fields.length !== 5) {
    const extra = fields.length > 5 ? ' (a seconds or year field is not supported: use minute hour day month weekday)' : '';
    return refuse(`"${text}" has ${fields.length} fields, a cron expression has 5${extra}`);
  }
  let next: Date | null;
  try {
    next = new Cron(text, { mode: '5-part', timezone: timeZone, paused: true }).nextRun(new Date(now));
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
    return refuse(`"${text}" is not a valid cron expression (${detail})`);
  }
  if (next === null) return refuse(`"${text}" never runs`);
  return { ok: true, schedule: { kind: 'cron', expression: text } };
}

/** Characters a cron expression is made of (digits, * , - / ? L W #, and day or month names). */
const CRONISH = /^[\d*,\-/?LW#a-z]+( [\d*,\-/?LW#a-z]+)*$/i;

/**
 * Reads a schedule text: a 5-field cron expression, "every <span>", "in <span>" (resolved against `now`), or an
 * absolute time (ISO 8601 with or without offset; without one, a wall-clock time in `timeZone`, DST-correct).
 * Never throws: anything else is a one-line refusal that lists the accepted forms.
 */
export function parseSchedule(params: { text: string; timeZone: string; now: number }): ScheduleParseResult {
  const { timeZone, now } = params;
  const text = params.text.trim().replace(/\s+/g, ' ');
  if (text === '') return refuse('the schedule is empty');
  if (!isTimeZone({ zone: timeZone })) return { ok: false, error: `"${timeZone}" is not a time zone (use an IANA name such as "Europe/Berlin" or "UTC").` };
  const lower = text.toLowerCase();
  const every = /^every (.+)$/.exec(lower);
  if (every?.[1] !== undefined) {
    const span = parseSpan(every[1]);
    if (typeof span === 'string') return refuse(`"${text}": ${span}${span.endsWith('is not a duration') ? ' (for times of day or weekdays send cron)' : ''}`);
    return { ok: true, schedule: { kind: 'interval', everyMs: span, anchorMs: now } };
  }
  const delay = /^in (.+)$/.exec(lower);
  if (delay?.[1] !== undefined) {
    const span = parseSpan(delay[1]);
    if (typeof span === 'string') return refuse(`"${text}": ${span}`);
    return { ok: true, schedule: { kind: 'once', atMs: now + span } };
  }
  const absolute = ABSOLUTE.exec(text);
  if (absolute) return parseAbsolute(absolute, text, timeZone, now);
  if (/^\d{4}-\d{1,2}-\d{1,2}/.test(text)) return refuse(`"${text}" is not a date and time in the form 2026-12-02 09:00`);
  if (text.startsWith('@') || CRONISH.test(text)) {
    if (!text.startsWith('@') && !/[\d*]/.test(text)) return refuse(`"${text}" is not a schedule`);
    return parseCron(text, timeZone, now);
  }
  return refuse(`"${text}" is not a schedule`);
}

/** A schedule already parsed, as `Schedule` (the store keeps it as JSON); undefined when the JSON is not one. */
export function scheduleFromJson(params: { json: string }): Schedule | undefined {
  try {
    const value: unknown = JSON.parse(params.json);
    if (typeof value !== 'object' || value === null) return undefined;
    const v = value as Record<string, unknown>;
    if (v.kind === 'cron' && typeof v.expression === 'string') return { kind: 'cron', expression: v.expression };
    if (v.kind === 'interval' && typeof v.everyMs === 'number' && typeof v.anchorMs === 'number' && v.everyMs > 0) {
      return { kind: 'interval', everyMs: v.everyMs, anchorMs: v.anchorMs };
    }
    if (v.kind === 'once' && typeof v.atMs === 'number') return { kind: 'once', atMs: v.atMs };
    return undefined;
  } catch {
    return undefined;
  }
}
