import { Cron } from 'croner';
import type { Schedule } from '../util/schedule/types.js';

/**
 * The first scheduled time strictly after `after` (epoch ms), or undefined when there is none (a one-shot that is
 * due at or before it). Cron is computed by croner in `timeZone` (DST per croner: a fixed time in a spring-forward
 * gap runs right after the gap, a repeated hour runs once); intervals are anchor + k * everyMs, so they never drift
 * whenever the caller asks.
 */
export function nextRun(params: { schedule: Schedule; after: number; timeZone: string }): number | undefined {
  const { schedule, after, timeZone } = params;
  switch (schedule.kind) {
    case 'once':
      return schedule.atMs > after ? schedule.atMs : undefined;
    case 'interval': {
      if (after < schedule.anchorMs) return schedule.anchorMs + schedule.everyMs;
      const steps = Math.floor((after - schedule.anchorMs) / schedule.everyMs) + 1;
      return schedule.anchorMs + steps * schedule.everyMs;
    }
    case 'cron': {
      const next = new Cron(schedule.expression, { mode: '5-part', timezone: timeZone, paused: true }).nextRun(new Date(after));
      return next === null ? undefined : next.getTime();
    }
  }
}
