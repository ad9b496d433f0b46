import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EnvSnapshot } from '../home/hermes-home.js';

/** What running a program gave. */
export interface ExecResult {
  /** Exit status (null when it could not run or was killed). */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why it could not run at all (e.g. "spawnSync systemctl ENOENT"). */
  readonly error?: string;
}

/** Runs a program to completion, killing it after `timeoutMs` (injectable, so tests see the exact systemctl calls without systemd). */
export type ExecFn = (params: { command: string; args: readonly string[]; timeoutMs?: number }) => ExecResult;

/** How the lifecycle commands reach systemd; every part can be replaced in tests. */
export interface SystemdDeps {
  readonly exec: ExecFn;
  /** Whether systemd is the init system here (it creates /run/systemd/system at boot). */
  readonly booted: () => boolean;
  /** Where system units live (/etc/systemd/system). */
  readonly systemUnitDir: string;
}

/** How long a systemctl call may take unless the caller says otherwise. */
const DEFAULT_EXEC_TIMEOUT_MS = 15_000;

/** The real thing: spawnSync (15 s limit unless given), /run/systemd/system, /etc/systemd/system. */
export const realSystemd: SystemdDeps = {
  exec: ({ command, args, timeoutMs }) => {
    const result = spawnSync(command, [...args], { encoding: 'utf8', timeout: timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS });
    return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', ...(result.error ? { error: result.error.message } : {}) };
  },
  booted: () => existsSync('/run/systemd/system'),
  systemUnitDir: '/etc/systemd/system',
};

/** The name every profile's instance shares: the template unit file. */
export const TEMPLATE_UNIT_NAME = 'hermes-gateway@.service';

/** One profile's service, in the user manager or the system manager. */
export interface ServiceTarget {
  /** True for the system manager (`--system`), false for the user's own. */
  readonly system: boolean;
  /** e.g. hermes-gateway@work.service */
  readonly instance: string;
  /** The folder the template unit goes in. */
  readonly unitDir: string;
  /** Full path of the template unit file. */
  readonly unitPath: string;
}

/** Where a profile's service lives: ~/.config/systemd/user (XDG_CONFIG_HOME) or /etc/systemd/system. */
export function serviceTarget(params: { profileName: string; system: boolean; env: EnvSnapshot; deps: SystemdDeps }): ServiceTarget {
  const configHome = params.env['XDG_CONFIG_HOME'] ?? path.join(params.env['HOME'] ?? os.homedir(), '.config');
  const unitDir = params.system ? params.deps.systemUnitDir : path.join(configHome, 'systemd', 'user');
  return { system: params.system, instance: `hermes-gateway@${params.profileName}.service`, unitDir, unitPath: path.join(unitDir, TEMPLATE_UNIT_NAME) };
}

/** The systemctl command line for a target: `systemctl --user ARGS` or `systemctl ARGS`. */
export function systemctlLine(params: { target: ServiceTarget; args: readonly string[] }): string {
  return ['systemctl', ...(params.target.system ? [] : ['--user']), ...params.args].join(' ');
}

/** Runs systemctl for the target (within `timeoutMs` when given): whether it worked, and its output or failure text. */
export function systemctl(params: { target: ServiceTarget; deps: SystemdDeps; args: readonly string[]; timeoutMs?: number }): { ok: boolean; output: string; status: number | null } {
  const args = [...(params.target.system ? [] : ['--user']), ...params.args];
  const result = params.deps.exec({ command: 'systemctl', args, ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}) });
  if (result.error !== undefined) return { ok: false, output: result.error, status: null };
  return { ok: result.status === 0, output: (result.status === 0 ? result.stdout : result.stderr || result.stdout || `exit ${result.status}`).trim(), status: result.status };
}

/**
 * Why systemd cannot be used here, or null when it can: not the init system (containers, CI), or the
 * manager does not answer (`systemctl --user` without a user session / bus).
 */
export function systemdUnavailable(params: { target: ServiceTarget; deps: SystemdDeps }): string | null {
  if (!params.deps.booted()) return 'systemd is not running on this machine (no /run/systemd/system; containers and CI usually have none)';
  const probe = systemctl({ ...params, args: ['show-environment'] });
  if (probe.ok) return null;
  const manager = params.target.system ? 'the systemd system manager' : 'your systemd user session';
  return `${manager} does not answer (${systemctlLine({ target: params.target, args: ['show-environment'] })}: ${probe.output.split('\n')[0] ?? ''})`;
}

/** Instances of the template enabled in the target's unit folder (their `*.wants/` links), e.g. ["hermes-gateway@work.service"]. */
export function enabledInstances(params: { target: ServiceTarget }): string[] {
  const dir = params.target.unitDir;
  if (!existsSync(dir)) return [];
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.name.endsWith('.wants') || !entry.isDirectory()) continue;
    for (const name of readdirSync(path.join(dir, entry.name))) if (name.startsWith('hermes-gateway@') && name !== TEMPLATE_UNIT_NAME) found.add(name);
  }
  return [...found].sort();
}
