import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserFacingError } from '../core/errors.js';
import { systemUnitUser } from './unit-user.js';
import { loadProfile, profileFrom, type GlobalOptions } from './context.js';
import { serviceStopTimeoutMs } from './gateway-drain.js';
import { println, type CliIO } from './output.js';
import { enabledInstances, realSystemd, serviceTarget, systemctl, systemctlLine, systemdUnavailable, type ServiceTarget, type SystemdDeps } from './systemctl.js';
import { renderUnit } from './systemd-unit.js';
import { errorMessage } from '../util/error-text.js';

/** What every service command takes: the CLI context, user or system manager, and how to reach systemd. */
export interface ServiceCommandParams {
  readonly options: GlobalOptions;
  readonly io: CliIO;
  /** The system manager (`--system`) instead of the user's. */
  readonly system: boolean;
  /** systemctl and friends (tests pass their own). */
  readonly systemd?: SystemdDeps;
}

/**
 * Runs systemctl steps in order (each within `timeoutMs` when given: a stop waits for the drain); the first failure
 * ends the command with what failed and what to look at.
 */
export function runSteps(params: { target: ServiceTarget; deps: SystemdDeps; steps: readonly (readonly string[])[]; timeoutMs?: number }): void {
  for (const args of params.steps) {
    const result = systemctl({ target: params.target, deps: params.deps, args, ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}) });
    if (result.ok) continue;
    throw new UserFacingError({
      message: `${systemctlLine({ target: params.target, args })} failed: ${result.output}`,
      hint: `See \`journalctl${params.target.system ? '' : ' --user'} -u ${params.target.instance}\`${params.target.system ? '; system units need root (sudo)' : ''}.`,
    });
  }
}

/**
 * `hermes gateway install [--system] [--print]`: writes the template unit (exact node and package paths,
 * HERMES_HOME), then daemon-reload, enable and start this profile's instance. Without systemd (containers, CI)
 * it says so and shows the unit; `--print` only shows it.
 */
export async function gatewayInstall(params: ServiceCommandParams & { print: boolean }): Promise<number> {
  const { io } = params;
  const deps = params.systemd ?? realSystemd;
  const loaded = await loadProfile(params);
  const { profile } = loaded;
  const user = systemUnitUser({ hermesHome: profile.hermesHome, env: io.env });
  if (params.system && user === 'root') {
    io.stderr.write(`warning: ${profile.hermesHome} is owned by root, so the system unit runs the gateway as root; chown it to a service account (e.g. hermes) and install again to run it unprivileged\n`);
  }
  const unit = renderUnit({
    nodePath: process.execPath,
    hermesHome: profile.hermesHome,
    drainTimeoutMs: loaded.config.gateway.drain_timeout,
    ...(params.system ? { system: { user } } : {}),
  });
  if (params.print) {
    io.stdout.write(unit);
    return 0;
  }
  const target = serviceTarget({ profileName: profile.name, system: params.system, env: io.env, deps });
  const problem = systemdUnavailable({ target, deps });
  if (problem !== null) {
    io.stdout.write(unit);
    throw new UserFacingError({
      message: `${problem}; the unit above was not installed`,
      hint: `Save it as ${target.unitPath} on a host with systemd, or run \`hermes -p ${profile.name} gateway run\` under your own supervisor.`,
      exitCode: 69,
    });
  }
  try {
    mkdirSync(target.unitDir, { recursive: true });
    writeFileSync(target.unitPath, unit);
  } catch (error) {
    throw new UserFacingError({
      message: `cannot write ${target.unitPath}: ${errorMessage(error)}`,
      hint: params.system ? `System units need root: sudo env HERMES_HOME=${profile.hermesHome} hermes -p ${profile.name} gateway install --system` : 'Check the permissions of that folder.',
      cause: error,
    });
  }
  runSteps({ target, deps, steps: [['daemon-reload'], ['enable', target.instance], ['start', target.instance]] });
  println({ stream: io.stdout, text: `installed ${target.unitPath} and started ${target.instance}${params.system ? ` (as user ${user})` : ''}` });
  const workspace = loaded.config.tools.workspace;
  if (params.system && path.relative(profile.hermesHome, workspace).startsWith('..')) {
    println({ stream: io.stdout, text: `note: the workspace ${workspace} is outside HERMES_HOME, so the sandbox keeps it read-only; \`systemctl edit ${target.instance}\` and add ReadWritePaths=${workspace}` });
  }
  if (!params.system) println({ stream: io.stdout, text: `to keep it running after you log out: loginctl enable-linger ${user}` });
  return 0;
}

/**
 * `hermes gateway uninstall [--system]`: stops and disables this profile's instance, removes the template unit
 * when no other profile's instance still uses it, and daemon-reloads.
 */
export async function gatewayUninstall(params: ServiceCommandParams): Promise<number> {
  const { io } = params;
  const deps = params.systemd ?? realSystemd;
  const profile = profileFrom(params);
  const target = serviceTarget({ profileName: profile.name, system: params.system, env: io.env, deps });
  const problem = systemdUnavailable({ target, deps });
  if (problem !== null) {
    throw new UserFacingError({ message: `${problem}, so there is no service to uninstall`, hint: `A gateway started with \`hermes -p ${profile.name} gateway run\` stops with \`hermes -p ${profile.name} gateway stop\`.`, exitCode: 69 });
  }
  if (!existsSync(target.unitPath)) {
    throw new UserFacingError({ message: `profile "${profile.name}" is not installed as a ${params.system ? 'system' : 'user'} service (no ${target.unitPath})`, hint: params.system ? 'Without --system it looks at the user service.' : 'With --system it looks at the system service.' });
  }
  runSteps({ target, deps, steps: [['stop', target.instance]], timeoutMs: await serviceStopTimeoutMs({ profile, env: io.env }) });
  runSteps({ target, deps, steps: [['disable', target.instance]] });
  const others = enabledInstances({ target }).filter((name) => name !== target.instance);
  if (others.length === 0) rmSync(target.unitPath, { force: true });
  runSteps({ target, deps, steps: [['daemon-reload']] });
  println({
    stream: io.stdout,
    text: others.length === 0 ? `stopped and removed ${target.instance} (${target.unitPath} deleted)` : `stopped and disabled ${target.instance}; ${target.unitPath} stays for ${others.join(', ')}`,
  });
  return 0;
}
