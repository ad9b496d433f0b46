import { loadAppConfig } from '../app/config-schema.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';

/** drain_timeout when the profile's config cannot be read (the schema's default). */
const DEFAULT_DRAIN_MS = 30_000;

/** The unit's TimeoutStopSec is the drain plus this (see systemd-unit.ts); `systemctl stop` may wait that long. */
const UNIT_STOP_MARGIN_MS = 30_000;

/** The profile's gateway.drain_timeout in ms, or the default when its config does not load. */
export async function drainTimeoutOf(params: { profile: Profile; env: EnvSnapshot }): Promise<number> {
  try {
    return (await loadAppConfig(params)).config.gateway.drain_timeout;
  } catch {
    return DEFAULT_DRAIN_MS;
  }
}

/**
 * How long a `systemctl stop|restart` of this profile's instance may block: systemd waits for the drain (up to the
 * unit's TimeoutStopSec) before it answers, so the usual 15 s limit would cut a busy gateway's stop short.
 */
export async function serviceStopTimeoutMs(params: { profile: Profile; env: EnvSnapshot }): Promise<number> {
  return (await drainTimeoutOf(params)) + UNIT_STOP_MARGIN_MS + 15_000;
}
