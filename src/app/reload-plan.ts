import { isDeepStrictEqual } from 'node:util';
import { platforms } from '../../adapters/index.js';
import type { AppConfig, PlatformName } from './config-schema.js';

/** What a config reload changes, worked out by comparing the running config with the new one. */
export interface ReloadPlan {
  /** Enabled before and after, with a changed section: stopped and started again with the new config. */
  readonly restart: readonly PlatformName[];
  /** Newly enabled. */
  readonly start: readonly PlatformName[];
  /** Disabled (or removed). */
  readonly stop: readonly PlatformName[];
  /** Enabled and unchanged: left running untouched. */
  readonly keep: readonly PlatformName[];
  /** Changed keys outside `platforms` that the next turns use (e.g. "model.name"). */
  readonly live: readonly string[];
  /** Changed keys outside `platforms` that only a restart applies (e.g. "gateway.http"). */
  readonly restartNeeded: readonly string[];
}

/**
 * Keys (a section or "section.key") whose new values are applied without a restart: the model and agent
 * settings, tool limits and stream details are read when a turn starts; the log level is set on the logger; the
 * heartbeat and the checks are restarted with their new sections (UnaskedLoops).
 */
const liveKeys: ReadonlySet<string> = new Set([
  'model',
  'timezone',
  'memory',
  'agent',
  'tools',
  // Read at each call of the web tools; only whether web_search is offered at all (search_backend set or not) waits
  // for a restart.
  'web.search_url',
  'web.search_api_key',
  'web.extract_char_limit',
  'web.max_bytes',
  'web.timeout',
  'web.cache_ttl',
  'web.allow_private',
  'media',
  'stt',
  'tts',
  'checkpoints',
  'mcp_servers',
  'toolsets',
  'platform_toolsets',
  'stream.cursor',
  'stream.typing_interval',
  'display',
  'gateway.busy_policy',
  'gateway.drain_timeout',
  'logging.level',
  'heartbeat',
  'checks',
]);

/** Compares the parsed, defaulted configs (secrets included: a new token restarts its adapter). */
export function planReload(params: { current: AppConfig; next: AppConfig }): ReloadPlan {
  const { current, next } = params;
  const restart: PlatformName[] = [];
  const start: PlatformName[] = [];
  const stop: PlatformName[] = [];
  const keep: PlatformName[] = [];
  for (const { name } of platforms) {
    const before = current.platforms[name];
    const after = next.platforms[name];
    const was = before.enabled;
    const now = after.enabled;
    if (was && now) (isDeepStrictEqual(before, after) ? keep : restart).push(name);
    else if (now) start.push(name);
    else if (was) stop.push(name);
  }
  const live: string[] = [];
  const restartNeeded: string[] = [];
  for (const key of changedKeys({ current, next })) {
    const section = key.split('.')[0] ?? key;
    (liveKeys.has(section) || liveKeys.has(key) ? live : restartNeeded).push(key);
  }
  return { restart, start, stop, keep, live, restartNeeded };
}

/** "section.key" for every changed key of every section except platforms (a changed non-object section is just "section"). */
function changedKeys(params: { current: AppConfig; next: AppConfig }): string[] {
  const current = asRecord(params.current);
  const next = asRecord(params.next);
  const changed: string[] = [];
  for (const section of new Set([...Object.keys(current), ...Object.keys(next)])) {
    if (section === 'platforms') continue;
    const a = current[section];
    const b = next[section];
    if (isDeepStrictEqual(a, b)) continue;
    if (!isRecord(a) || !isRecord(b)) {
      changed.push(section);
      continue;
    }
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!isDeepStrictEqual(a[key], b[key])) changed.push(`${section}.${key}`);
    }
  }
  return changed;
}

/**
 * The config to treat as running after a reload: `next`, except the keys in `keepFromCurrent` ("section",
 * "section.key" or "platforms.NAME"), which keep their running values because they were not applied.
 */
export function appliedConfig(params: { current: AppConfig; next: AppConfig; keepFromCurrent: readonly string[] }): AppConfig {
  const result = structuredClone(asRecord(params.next));
  const current = asRecord(params.current);
  for (const key of params.keepFromCurrent) {
    const [section, sub] = key.split('.');
    if (section === undefined) continue;
    const from = current[section];
    const into = result[section];
    if (sub === undefined || !isRecord(from) || !isRecord(into)) result[section] = structuredClone(from);
    else into[sub] = structuredClone(from[sub]);
  }
  return result as unknown as AppConfig;
}

function asRecord(config: AppConfig): Record<string, unknown> {
  return config;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
