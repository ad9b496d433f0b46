import type { FailureReason } from '../errors.js';

/** Short words for why the primary model did not answer. */
const WHY: Partial<Record<FailureReason | 'keys_resting', string>> = {
  auth: 'was refused the API key',
  out_of_credit: 'is out of credit',
  rate_limit: 'is rate limited',
  model_not_found: 'was not found',
  server_error: 'failed with a server error',
  overloaded: 'is overloaded',
  timeout: 'timed out',
  connection: 'could not be reached',
  keys_resting: 'has all its API keys cooling down',
};

/** The one line a user sees when a fallback model answered the turn. */
export function fallbackNote(params: { model: string; reason: FailureReason | 'keys_resting' }): string {
  const why = WHY[params.reason] ?? 'failed';
  return `(answered by fallback model ${params.model}: the primary ${why})`;
}

/** The sentence after the primary's message when every fallback failed too, with why each did: "… (b is rate limited)." */
export function fallbacksFailedNote(params: { failed: readonly { model: string; reason: FailureReason | 'keys_resting' }[] }): string {
  const each = params.failed.map((f) => `${f.model} ${WHY[f.reason] ?? 'failed'}`).join('; ');
  return ` The fallback models failed too${each ? ` (${each})` : ''}.`;
}

/** Words for a cooldown's reason. */
const RESTING: Record<string, string> = {
  rate_limit: 'rate limited',
  out_of_credit: 'out of credit',
  auth: 'rejected',
};

/** An epoch-ms time as HH:MM in a time zone (the host's when unset), with the day ("6 Jan 14:05") when not the day of `now`. */
export function clockTime(params: { at: number; now?: number | undefined; timeZone?: string | undefined }): string {
  const zone = params.timeZone ? { timeZone: params.timeZone } : {};
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...zone }).format(new Date(params.at));
  if (params.now === undefined) return time;
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', ...zone });
  const atDay = day.format(new Date(params.at));
  return atDay === day.format(new Date(params.now)) ? time : `${atDay} ${time}`;
}

/** Why a key rests, in words ("out of credit"). */
export function restingWords(params: { reason: string | undefined }): string {
  return params.reason ? (RESTING[params.reason] ?? params.reason) : 'failed';
}

/** The user message when every key of a model is cooling down. */
export function exhaustedMessage(params: {
  model: string;
  nextAt: number | undefined;
  reason: string | undefined;
  timeZone?: string | undefined;
  now: number;
}): string {
  const back = params.nextAt !== undefined
    ? ` The first comes back at ${clockTime({ at: params.nextAt, now: params.now, timeZone: params.timeZone })} (it was ${restingWords({ reason: params.reason })}).`
    : '';
  return `Every API key for model "${params.model}" is cooling down after failures.${back} Add a working key to model.api_keys, or wait.`;
}
