import { wallTime } from './zoned-time.js';

/** A daily wall-clock range in minutes after midnight; `start > end` crosses midnight ("23:00-07:00"). */
export interface QuietHours {
  readonly startMinute: number;
  readonly endMinute: number;
}

/** What `parseQuietHours` returns: the range, or a one-line reason it is not one. */
export type QuietHoursParseResult = { readonly ok: true; readonly quiet: QuietHours } | { readonly ok: false; readonly error: string };

const RANGE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;

/** Reads "23:00-07:00" (start inclusive, end exclusive, 24-hour clock); start and end must differ. */
export function parseQuietHours(params: { text: string }): QuietHoursParseResult {
  const match = RANGE.exec(params.text.trim());
  const refuse = (reason: string): QuietHoursParseResult => ({ ok: false, error: `${reason}; write a range such as "23:00-07:00"` });
  if (match === null) return refuse(`"${params.text}" is not a time range`);
  const [, h1, m1, h2, m2] = match.map(Number);
  if (h1 === undefined || m1 === undefined || h2 === undefined || m2 === undefined) return refuse(`"${params.text}" is not a time range`);
  if (h1 > 23 || h2 > 23 || m1 > 59 || m2 > 59) return refuse(`"${params.text}" has a time that does not exist`);
  const startMinute = h1 * 60 + m1;
  const endMinute = h2 * 60 + m2;
  if (startMinute === endMinute) return refuse(`"${params.text}" starts and ends at the same time`);
  return { ok: true, quiet: { startMinute, endMinute } };
}

/** True when `atMs`, read as a wall-clock time in `timeZone` (so DST-correct), falls inside `quiet`. */
export function isQuietAt(params: { quiet: QuietHours; atMs: number; timeZone: string }): boolean {
  const { startMinute, endMinute } = params.quiet;
  const wall = wallTime({ atMs: params.atMs, timeZone: params.timeZone });
  const minute = wall.hour * 60 + wall.minute;
  if (startMinute < endMinute) return minute >= startMinute && minute < endMinute;
  return minute >= startMinute || minute < endMinute;
}
