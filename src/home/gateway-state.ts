import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from './profile.js';

/** What a running gateway tells `hermes status` about itself. */
export interface GatewayStateFile {
  readonly pid: number;
  readonly startedAt: number;
  readonly http: { readonly host: string; readonly port: number } | null;
  /** The last config reload (SIGHUP): when, whether the new config was taken, and what it changed. */
  readonly lastReload?: { readonly at: number; readonly ok: boolean; readonly summary: string };
}

function statePath(params: { profile: Profile }): string {
  return path.join(params.profile.dir, 'gateway.json');
}

/** Written by `gateway run` once it listens (the port may have been 0 = any free one). */
export function writeGatewayState(params: { profile: Profile; state: GatewayStateFile }): void {
  writeFileSync(statePath(params), `${JSON.stringify(params.state)}\n`, { mode: 0o600 });
}

/** The last state a gateway of this profile wrote, if any. */
export function readGatewayState(params: { profile: Profile }): GatewayStateFile | undefined {
  try {
    return JSON.parse(readFileSync(statePath(params), 'utf8')) as GatewayStateFile;
  } catch {
    return undefined;
  }
}

/** Removed when the gateway stops. */
export function removeGatewayState(params: { profile: Profile }): void {
  rmSync(statePath(params), { force: true });
}
