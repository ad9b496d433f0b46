import type { Schedule } from '../util/schedule/types.js';
import { formatWallTime } from '../util/schedule/zoned-time.js';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const NAME_TO_DAY: ReadonlyMap<string, number> = new Map(
  ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((name, day): [string, number] => [name, day]),
);

/** "2 hours", "90 minutes", "1 day", "1 hour 30 minutes". */
export function describeSpan(params: { ms: number }): string {
  const units: readonly [number, string][] = [
    [604_800_000, 'week'],
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  const whole = units.find(([size]) => params.ms % size === 0);
  if (whole && params.ms / whole[0] <= 120) return plural(params.ms / whole[0], whole[1]);
  const parts: string[] = [];
  let rest = params.ms;
  for (const [size, name] of units.slice(1)) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(plural(count, name));
    rest -= count * size;
  }
  return parts.join(' ') || plural(Math.round(params.ms / 1000), 'second');
}

/** "1 hour", "2 hours". */
function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The day-of-week field in words, or undefined when it is not a simple one. */
function describeDays(field: string): string | undefined {
  const normal = field.toLowerCase().replace(/[a-z]{3}/g, (name) => String(NAME_TO_DAY.get(name) ?? name)).replace(/7/g, '0');
  if (normal === '*') return 'every day';
  if (normal === '1-5') return 'every weekday';
  if (normal === '0,6' || normal === '6,0') return 'every Saturday and Sunday';
  if (/^[0-6](,[0-6])*$/.test(normal)) {
    const names = normal.split(',').map((d) => DAY_NAMES[Number(d)] ?? d);
    return `every ${names.join(', ')}`;
  }
  return undefined;
}

/** A cron expression in words where it is a common shape ("every weekday at 08:00"), else `cron "..."`. */
function describeCron(expression: string): string {
  const nicknames: Record<string, string> = {
    '@yearly': 'every year on January 1 at 00:00',
    '@annually': 'every year on January 1 at 00:00',
    '@monthly': 'on the 1st of every month at 00:00',
    '@weekly': 'every Sunday at 00:00',
    '@daily': 'every day at 00:00',
    '@midnight': 'every day at 00:00',
    '@hourly': 'every hour at :00',
  };
  const nick = nicknames[expression.toLowerCase()];
  if (nick !== undefined) return nick;
  const [minute, hour, dom, month, dow] = expression.split(' ');
  const two = (n: string): string => n.padStart(2, '0');
  const simple = (f: string | undefined): f is string => f !== undefined && /^\d{1,2}$/.test(f);
  if (simple(minute) && simple(hour) && dom === '*' && month === '*' && dow !== undefined) {
    const days = describeDays(dow);
    if (days !== undefined) return `${days} at ${two(hour)}:${two(minute)}`;
  }
  if (simple(minute) && simple(hour) && simple(dom) && month === '*' && dow === '*') {
    return `on day ${dom} of every month at ${two(hour)}:${two(minute)}`;
  }
  if (simple(minute) && hour === '*' && dom === '*' && month === '*' && dow === '*') return `every hour at :${two(minute)}`;
  return `cron "${expression}"`;
}

/** A schedule in words with its time zone, as every listing shows it: "every weekday at 08:00 (Europe/Berlin)". */
export function describeSchedule(params: { schedule: Schedule; timeZone: string }): string {
  const { schedule, timeZone } = params;
  switch (schedule.kind) {
    case 'cron':
      return `${describeCron(schedule.expression)} (${timeZone})`;
    case 'interval':
      return `every ${describeSpan({ ms: schedule.everyMs })} (from ${formatWallTime({ atMs: schedule.anchorMs, timeZone })} ${timeZone})`;
    case 'once':
      return `once at ${formatWallTime({ atMs: schedule.atMs, timeZone })} (${timeZone})`;
  }
}
