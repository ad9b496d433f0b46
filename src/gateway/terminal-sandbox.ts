import fs from 'node:fs';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { resolveSandbox, type SandboxResolution } from '../tools/sandbox/mode.js';
import { probeBwrap, type ProbeResult } from '../tools/sandbox/probe.js';

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
 */
export function terminalSandboxFor(params: { config: GatewayConfig; profile: Profile; probe?: () => ProbeResult }): SandboxResolution {
  const { terminal } = params.config.tools;
  const hide = [params.profile.hermesHome, ...socketDirsToHide({ network: terminal.network })];
  return resolveSandbox({ mode: terminal.sandbox, network: terminal.network, hide, probe: params.probe ?? (() => probeBwrap()) });
}

/** Logs the one start-up warning when the terminal runs unconfined (sandbox: none, or auto without a working bwrap). */
export function warnIfUnconfined(params: { resolution: SandboxResolution; logger: Logger }): void {
  const { resolution } = params;
  if (resolution.spec !== undefined) return;
  params.logger.warn({ reason: resolution.unconfinedReason }, `the terminal tool runs unconfined (${resolution.unconfinedReason ?? 'no sandbox'}): model-written commands can read and write whatever the gateway user can`);
}
