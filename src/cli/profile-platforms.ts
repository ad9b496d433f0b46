import { existsSync, readFileSync } from 'node:fs';
import { platforms } from '../../adapters/index.js';
import { bool } from '../util/config-fields.js';
import { parseConfigText } from '../config/yaml-file.js';
import type { Profile } from '../home/profile.js';

/** The platforms block names config.yaml knows, in the order `profile list` shows them (adapters/index.ts's). */
const platformNames: readonly string[] = platforms.map((platform) => platform.name);

/**
 * For `profile list`: the platforms config.yaml turns on (`enabled: true` as written; an `enabled` that is a
 * `${VAR}` counts as off), "none" without any, or why the file cannot be read. Synchronous and never throws.
 */
export function describeEnabledPlatforms(params: { profile: Profile }): string {
  const { configPath } = params.profile;
  if (!existsSync(configPath)) return 'none';
  let tree: Readonly<Record<string, unknown>>;
  try {
    tree = parseConfigText({ text: readFileSync(configPath, 'utf8'), file: configPath });
  } catch {
    return 'config broken';
  }
  const platforms = tree['platforms'];
  if (platforms === null || typeof platforms !== 'object') return 'none';
  const enabled = platformNames.filter((name) => {
    const block: unknown = (platforms as Record<string, unknown>)[name];
    if (block === null || typeof block !== 'object') return false;
    const parsed = bool().safeParse((block as Record<string, unknown>)['enabled']);
    return parsed.success && parsed.data;
  });
  return enabled.length === 0 ? 'none' : enabled.join(',');
}
