import { existsSync, readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { looksSecretKey } from '../config/secret-keys.js';
import type { Profile } from '../home/profile.js';

/** Platform keys that say who the bot is (its account, number, address, public URL): a clone gets its own. */
const accountKeys: ReadonlySet<string> = new Set(['username', 'smtp_username', 'address', 'account_sid', 'from_number', 'messaging_service_sid', 'webhook', 'webhook_url']);

/** True for a platform key a clone never copies: a secret, an allowlist, or what identifies the account. */
function privatePlatformKey(key: string): boolean {
  return looksSecretKey({ key }) || key.startsWith('allowed_') || key.startsWith('free_response_') || accountKeys.has(key);
}

/** Key paths below `value` whose last key looks secret (token, password, api_key...), at any depth. */
function secretPaths(params: { value: unknown; at: readonly string[] }): string[][] {
  const { value, at } = params;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    looksSecretKey({ key }) ? [[...at, key]] : secretPaths({ value: child, at: [...at, key] }),
  );
}

/**
 * config.yaml of `from` for a clone: every secret-looking key removed wherever it is (model.api_key too), each
 * platform without its credentials, allowlists and account identifiers, and disabled. Comments and the other
 * settings stay. Undefined when `from` has no config.yaml.
 */
export function cloneConfig(params: { from: Profile }): string | undefined {
  if (!existsSync(params.from.configPath)) return undefined;
  const doc = parseDocument(readFileSync(params.from.configPath, 'utf8'));
  const json: unknown = doc.toJS();
  for (const keyPath of secretPaths({ value: json, at: [] })) doc.deleteIn(keyPath);
  const platforms = json !== null && typeof json === 'object' && 'platforms' in json ? json.platforms : undefined;
  if (platforms !== null && typeof platforms === 'object') {
    for (const [name, block] of Object.entries(platforms as Record<string, unknown>)) {
      if (typeof block !== 'object' || block === null) continue;
      for (const key of Object.keys(block)) if (privatePlatformKey(key)) doc.deleteIn(['platforms', name, key]);
      doc.setIn(['platforms', name, 'enabled'], false);
    }
  }
  return doc.toString();
}
