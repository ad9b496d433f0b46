import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../../config/schema.js';
import type { Profile } from '../../home/profile.js';
import { resolveSandbox, type SandboxResolution } from './mode.js';
import { probeBwrap, type ProbeResult } from './probe.js';

/**
 * Host folders of local services' unix sockets, hidden from a sandboxed command (those that exist: a hidden folder
 * needs its mount point). A new network namespace does not stop a connect() to a socket file on the read-only
 * system, so without the network all of /run (D-Bus, systemd, docker, PostgreSQL, MySQL sockets) is hidden; with
 * it, /run/user still is: the owner's D-Bus session and systemd --user manager would run commands outside the sandbox.
 */
export function socketDirsToHide(params: { network: boolean; exists?: (dir: string) => boolean }): string[] {
  const exists = params.exists ?? ((dir: string): boolean => fs.existsSync(dir));
  const dirs = params.network ? ['/run/user'] : ['/run', '/var/run'];
  return dirs.filter((dir) => exists(dir));
}

/**
 * The terminal tool's sandbox for a profile's config: tools.terminal.sandbox / network resolved against the (cached)
 * bwrap probe; the whole HERMES_HOME (every profile) and the service sockets (socketDirsToHide) are hidden from the command.
 * A workspace that would show the profile's files (exposedProfileFiles) makes it unavailable: nothing runs, the reason says why.
 */
export function terminalSandboxFor(params: { config: GatewayConfig; profile: Profile; probe?: () => ProbeResult }): SandboxResolution {
  const { terminal } = params.config.tools;
  const hide = [params.profile.hermesHome, ...socketDirsToHide({ network: terminal.network })];
  const resolution = resolveSandbox({ mode: terminal.sandbox, network: terminal.network, hide, probe: params.probe ?? (() => probeBwrap()) });
  if (resolution.spec?.kind !== 'bwrap') return resolution;
  const exposed = exposedProfileFiles({ workspace: params.config.tools.workspace, profile: params.profile });
  return exposed === undefined ? resolution : { spec: { kind: 'unavailable', reason: exposed } };
}

/** True when `inner` is `outer` or lies inside it (both absolute). */
function within(params: { inner: string; outer: string }): boolean {
  const rel = path.relative(params.outer, params.inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** A path with symlinks resolved (as given when it does not exist). */
function real(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * Why the sandbox cannot confine a workspace that lies in HERMES_HOME outside the profile's workspace/ folder
 * (`tools.workspace: ~/.hermes` or the profile's own folder): the workspace is bound back over the hidden
 * HERMES_HOME, so .env, state.db and config.yaml would be readable and writable. Undefined when the workspace is fine.
 */
export function exposedProfileFiles(params: { workspace: string; profile: Profile }): string | undefined {
  const { profile } = params;
  const workspace = real(params.workspace);
  if (!within({ inner: workspace, outer: real(profile.hermesHome) }) || within({ inner: workspace, outer: real(profile.workspaceDir) })) return undefined;
  return (
    `the terminal sandbox cannot hide the profile's files: tools.workspace (${params.workspace}) lies in HERMES_HOME ` +
    `(${profile.hermesHome}) outside the profile's workspace folder, so .env, state.db and config.yaml would be in reach. ` +
    `Set tools.workspace to a folder of its own (the default is ${profile.workspaceDir}), or tools.terminal.sandbox: none to run unconfined.`
  );
}

/**
 * Logs the one start-up warning when the terminal runs unconfined (sandbox: none, or auto without a working bwrap),
 * or runs nothing at all (the sandbox is required but unavailable: bwrap does not work, or the workspace shows the profile).
 */
export function warnIfUnconfined(params: { resolution: SandboxResolution; logger: Logger }): void {
  const { resolution } = params;
  if (resolution.spec?.kind === 'unavailable') {
    params.logger.warn({ reason: resolution.spec.reason }, `the terminal tool runs no command: ${resolution.spec.reason}`);
    return;
  }
  if (resolution.spec !== undefined) return;
  params.logger.warn({ reason: resolution.unconfinedReason }, `the terminal tool runs unconfined (${resolution.unconfinedReason ?? 'no sandbox'}): model-written commands can read and write whatever the gateway user can`);
}
