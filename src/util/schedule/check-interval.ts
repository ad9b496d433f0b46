import { parseSchedule } from './schedule.js';

/** What `parseCheckInterval` returns: the interval in ms, or a one-line reason. */
export type CheckIntervalResult = { readonly ok: true; readonly everyMs: number } | { readonly ok: false; readonly error: string };

/**
 * A check's interval, read like a job's "every …" schedule ("30m", "every 2h", "90 minutes"; at least 1 minute).
 * The "every " prefix is optional; cron expressions and one-shots are refused.
 */
export function parseCheckInterval(params: { text: string }): CheckIntervalResult {
  const trimmed = params.text.trim();
  const text = /^every\s/i.test(trimmed) ? trimmed : `every ${trimmed}`;
  const parsed = parseSchedule({ text, timeZone: 'UTC', now: 0 });
  if (parsed.ok && parsed.schedule.kind === 'interval') return { ok: true, everyMs: parsed.schedule.everyMs };
  const hint = 'an interval such as "30m", "2h" or "every 1d", at least 1 minute';
  if (!parsed.ok) {
    const reason = parsed.error.replace(/^"every [^"]*": /, '').replace(/ \(for times of day or weekdays send cron\)/, '').replace(/; accepted: .*$/, '');
    return { ok: false, error: `${hint} (${reason})` };
  }
  return { ok: false, error: hint };
}
