import { existsSync } from 'node:fs';
import { UserFacingError } from '../core/errors.js';
import type { Profile } from '../home/profile.js';
import { gatewayPid, stopGateway } from '../home/stop-gateway.js';
import { systemClock, type Clock } from '../core/clock.js';
import { profileFrom } from './context.js';
import { drainTimeoutOf, serviceStopTimeoutMs } from './gateway-drain.js';
import { runSteps, type ServiceCommandParams } from './gateway-install.js';
import { println } from './output.js';
import { realSystemd, serviceTarget, systemctl, systemdUnavailable, type ServiceTarget, type SystemdDeps } from './systemctl.js';

/** The profile's service as far as systemd goes: usable and installed, or why not. */
type ServiceLookup =
  | { readonly kind: 'installed'; readonly target: ServiceTarget; readonly deps: SystemdDeps; readonly profile: Profile }
  | { readonly kind: 'absent'; readonly reason: string; readonly profile: Profile };

function lookup(params: ServiceCommandParams): ServiceLookup {
  const deps = params.systemd ?? realSystemd;
  const profile = profileFrom(params);
  const target = serviceTarget({ profileName: profile.name, system: params.system, env: params.io.env, deps });
  const problem = systemdUnavailable({ target, deps });
  if (problem !== null) return { kind: 'absent', reason: problem, profile };
  if (!existsSync(target.unitPath)) return { kind: 'absent', reason: `profile "${profile.name}" is not installed as a ${params.system ? 'system' : 'user'} service`, profile };
  return { kind: 'installed', target, deps, profile };
}

/** The explanation for start/restart without a service. */
function notInstalled(params: { reason: string; profile: Profile; system: boolean }): UserFacingError {
  const name = params.profile.name;
  return new UserFacingError({
    message: `${params.reason}: run \`hermes -p ${name} gateway install${params.system ? ' --system' : ''}\` or \`hermes -p ${name} gateway run\``,
    hint: '`gateway install` makes systemd start it at boot and restart it on failure; `gateway run` runs it in this terminal.',
  });
}

/** `hermes gateway start [--system]`: starts the installed service. */
export async function gatewayStart(params: ServiceCommandParams): Promise<number> {
  const found = lookup(params);
  if (found.kind === 'absent') throw notInstalled({ ...found, system: params.system });
  runSteps({ target: found.target, deps: found.deps, steps: [['start', found.target.instance]] });
  println({ stream: params.io.stdout, text: `started ${found.target.instance}` });
  return 0;
}

/** `hermes gateway restart [--system]`: restarts the installed service (a config change alone only needs `gateway reload`). */
export async function gatewayRestart(params: ServiceCommandParams): Promise<number> {
  const found = lookup(params);
  if (found.kind === 'absent') throw notInstalled({ ...found, system: params.system });
  const timeoutMs = await serviceStopTimeoutMs({ profile: found.profile, env: params.io.env });
  runSteps({ target: found.target, deps: found.deps, steps: [['restart', found.target.instance]], timeoutMs });
  println({ stream: params.io.stdout, text: `restarted ${found.target.instance}` });
  return 0;
}

/**
 * `hermes gateway stop [--system]`: stops the installed service; a gateway running in the foreground (not
 * under systemd) gets SIGTERM, and the command waits until it has drained and exited.
 */
export async function gatewayStop(params: ServiceCommandParams & { clock?: Clock }): Promise<number> {
  const { io } = params;
  const found = lookup(params);
  if (found.kind === 'installed') {
    const timeoutMs = await serviceStopTimeoutMs({ profile: found.profile, env: io.env });
    runSteps({ target: found.target, deps: found.deps, steps: [['stop', found.target.instance]], timeoutMs });
    println({ stream: io.stdout, text: `stopped ${found.target.instance}` });
  }
  const { profile } = found;
  if (gatewayPid({ profile }) === null) {
    if (found.kind === 'absent') println({ stream: io.stdout, text: `the gateway for profile "${profile.name}" is not running (${found.reason})` });
    return 0;
  }
  const drainMs = await drainTimeoutOf({ profile, env: io.env });
  println({ stream: io.stdout, text: `stopping the gateway for profile "${profile.name}" (it drains for up to ${Math.round(drainMs / 1000)}s)...` });
  const result = await stopGateway({ profile, clock: params.clock ?? systemClock, graceMs: drainMs + 15_000 });
  if (result.kind === 'survived') throw new UserFacingError({ message: `the gateway (pid ${result.pid}) did not exit, even after SIGKILL`, hint: 'Look at it with `ps`; it may be stuck in the kernel.' });
  if (result.kind === 'killed') println({ stream: io.stdout, text: `pid ${result.pid} did not drain in time and was killed` });
  else println({ stream: io.stdout, text: result.kind === 'exited' ? `stopped (pid ${result.pid})` : 'stopped' });
  return 0;
}

/** `hermes gateway status [--system]`: systemctl status of the installed service, else whether a foreground gateway runs. Exit 3 when not running. */
export async function gatewayServiceStatus(params: ServiceCommandParams): Promise<number> {
  const { io } = params;
  const found = lookup(params);
  if (found.kind === 'installed') {
    const result = systemctl({ target: found.target, deps: found.deps, args: ['status', '--no-pager', found.target.instance] });
    io.stdout.write(`${result.output}\n`);
    return result.ok ? 0 : 3;
  }
  const pid = gatewayPid({ profile: found.profile });
  println({ stream: io.stdout, text: `${found.reason}` });
  println({ stream: io.stdout, text: pid === null ? `the gateway for profile "${found.profile.name}" is not running` : `a gateway for profile "${found.profile.name}" runs in the foreground (pid ${pid})` });
  return pid === null ? 3 : 0;
}
