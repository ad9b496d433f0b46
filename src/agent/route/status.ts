import type { KeyStatus } from './pool.js';
import type { TargetStatus } from './route.js';
import { clockTime, restingWords } from './wording.js';

/** One key's state in words: `sk-…3f9a: ok, 12 calls` or `sk-…1111: cooling down until 14:05 (out of credit)`. */
export function keyStatusText(params: { key: KeyStatus; now?: number | undefined; timeZone?: string | undefined }): string {
  const { key } = params;
  if (key.coolingUntil !== undefined) {
    const until = clockTime({ at: key.coolingUntil, now: params.now, timeZone: params.timeZone });
    return `${key.masked}: cooling down until ${until} (${restingWords({ reason: key.reason })})`;
  }
  return `${key.masked}: ok, ${key.calls} call${key.calls === 1 ? '' : 's'}`;
}

/** One line per model of the route that has keys: "Keys of model-a (primary): sk-…3f9a: ok, 12 calls; ...". */
export function routeStatusLines(params: { targets: readonly TargetStatus[]; timeZone?: string | undefined }): string[] {
  return params.targets
    .filter((t) => t.keys.length > 0)
    .map((t) => `Keys of ${t.name} (${t.role}): ${t.keys.map((key) => keyStatusText({ key, now: t.now, timeZone: params.timeZone })).join('; ')}`);
}
