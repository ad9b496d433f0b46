import fs from 'node:fs';
import { routeFromConfig } from '../agent/route/from-config.js';
import { keyStatusText } from '../agent/route/status.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { openStore } from '../store/sqlite-store.js';
import type { Clock } from '../core/clock.js';
import { line, type CheckLine } from '../core/check-line.js';

/**
 * One line per model of the route that has API keys: each key masked with its calls, or until when it cools down
 * (read from the profile's store; a profile without a store yet has every key ok).
 */
export function keyPoolLines(params: { config: GatewayConfig; profile: Profile; clock: Clock }): CheckLine[] {
  const { config, profile, clock } = params;
  const store = fs.existsSync(profile.dbPath) ? openStore({ path: profile.dbPath, clock }) : undefined;
  try {
    const route = routeFromConfig({ config, clock, store });
    return route.status().flatMap((target) => {
      if (target.keys.length === 0) return [];
      const texts = target.keys.map((key) => keyStatusText({ key, now: target.now, timeZone: config.timezone }));
      const name = `keys of ${target.name} (${target.role})`;
      const resting = target.keys.filter((k) => k.coolingUntil !== undefined).length;
      if (resting === 0) return [line.ok(name, texts.join('; '))];
      const fix = 'A resting key is skipped until then; add a working key to model.api_keys (or the fallback\'s api_keys) to answer now.';
      return [resting === target.keys.length ? line.fail(name, texts.join('; '), fix) : line.warn(name, texts.join('; '), fix)];
    });
  } finally {
    store?.close();
  }
}
