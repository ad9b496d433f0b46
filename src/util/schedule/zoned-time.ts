/** Wall-clock fields of an instant in a time zone (month 1-12). */
export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter that yields numeric wall-clock parts in `timeZone`. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The wall-clock time `atMs` shows in `timeZone`. */
export function wallTime(params: { atMs: number; timeZone: string }): WallTime {
  const parts = formatter(params.timeZone).formatToParts(new Date(params.atMs));
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour') % 24, minute: part('minute'), second: part('second') };
}

/** The zone's offset from UTC at `atMs`, in ms (Europe/Berlin in winter: +3_600_000). */
export function zoneOffsetMs(params: { atMs: number; timeZone: string }): number {
  const w = wallTime(params);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(params.atMs / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time names in `timeZone`, DST-correct: a time that occurs twice (fall back) is its first
 * occurrence; a time that does not exist (spring forward) moves forward by the gap (02:30 in a 02:00→03:00 gap is 03:30).
 */
export function zonedInstant(params: { wall: WallTime; timeZone: string }): number {
  const { wall, timeZone } = params;
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const before = zoneOffsetMs({ atMs: asUtc - DAY_MS, timeZone });
  const after = zoneOffsetMs({ atMs: asUtc + DAY_MS, timeZone });
  const valid = [asUtc - before, asUtc - after].filter((t) => t + zoneOffsetMs({ atMs: t, timeZone }) === asUtc);
  if (valid.length > 0) return Math.min(...valid);
  return asUtc - before;
}

/** "2026-12-02 09:00" as `atMs` reads in `timeZone`. */
export function formatWallTime(params: { atMs: number; timeZone: string }): string {
  const w = wallTime(params);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}`;
}
