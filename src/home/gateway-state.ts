import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { diskErrorKind, diskReason, type DiskReporter } from '../util/disk-error.js';
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

/**
 * Written by `gateway run` once it listens (the port may have been 0 = any free one). Written aside and renamed,
 * so a write the disk cuts short never leaves a truncated file behind.
 */
export function writeGatewayState(params: { profile: Profile; state: GatewayStateFile }): void {
  const file = statePath(params);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(params.state)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * writeGatewayState for a running gateway, after the pid file's content if the disk refused it at start (`lock`):
 * a write the disk refuses (full, read-only) is reported to `disk` and returns false instead of throwing, so the
 * gateway keeps running; `disk` is told once both are written.
 */
export function saveGatewayState(params: { profile: Profile; state: GatewayStateFile; disk: DiskReporter; lock?: { retryWrite(): boolean } }): boolean {
  try {
    params.lock?.retryWrite();
    writeGatewayState(params);
  } catch (error) {
    const kind = diskErrorKind({ error, path: params.profile.dir });
    if (kind === undefined) throw error;
    params.disk.failed({ part: 'state', kind, detail: `gateway.json / gateway.pid cannot be written (${diskReason({ kind })}); hermes status may not find this gateway` });
    return false;
  }
  params.disk.succeeded({ part: 'state' });
  return true;
}

/** The last state a gateway of this profile wrote, if any. */
export function readGatewayState(params: { profile: Profile }): GatewayStateFile | undefined {
  try {
    return JSON.parse(readFileSync(statePath(params), 'utf8')) as GatewayStateFile;
  } catch {
    return undefined;
  }
}

/** Removed when the gateway stops (best effort: on a read-only disk it stays, and its pid tells it is stale). */
export function removeGatewayState(params: { profile: Profile }): void {
  try {
    rmSync(statePath(params), { force: true });
  } catch {
    // A stale file names a pid that no longer runs; readers check that.
  }
}
