import { createServer } from 'node:net';
import type { GatewayConfig } from '../config/schema.js';
import { readGatewayState } from '../home/gateway-state.js';
import { processAlive, readPidFile, runningPid } from '../home/pid-lock.js';
import { DEFAULT_PROFILE_NAME, type Profile } from '../home/profile.js';
import type { Clock } from '../core/clock.js';
import { describeRunning } from '../home/uptime.js';
import { line, type CheckLine } from '../core/check-line.js';

/** "hermes -p work gateway run". */
function runCommand(profile: Profile): string {
  return `hermes${profile.name === DEFAULT_PROFILE_NAME ? '' : ` -p ${profile.name}`} gateway run`;
}

/** Is the profile's gateway running? A pid file left by a dead process is noted (the next start takes it over). */
export function gatewayRunningCheck(params: { profile: Profile; clock: Clock }): CheckLine {
  const { profile } = params;
  const pid = runningPid({ profile });
  if (pid !== null) {
    return line.ok('gateway', describeRunning({ profile, pid, clock: params.clock }));
  }
  const fix = `Start it: \`${runCommand(profile)}\` (or \`systemctl --user start hermes-gateway@${profile.name}\` when installed).`;
  const stale = readPidFile({ profile });
  if (stale !== null) {
    const gone = processAlive({ pid: stale.pid }) ? 'which is now another process' : 'which is gone';
    return line.warn('gateway', `not running; ${profile.pidPath} names pid ${stale.pid}, ${gone} (a crash or kill -9; the next start takes the file over)`, fix);
  }
  return line.warn('gateway', 'not running', fix);
}

/** Tries to listen on host:port; null when it could, else the error code. */
function tryListen(params: { host: string; port: number }): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host: params.host, port: params.port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** The HTTP port is free, or held by this profile's own gateway. */
export async function portCheck(params: { profile: Profile; config: GatewayConfig }): Promise<CheckLine> {
  const { profile } = params;
  const { http } = params.config.gateway;
  if (!http.enabled) return line.ok('http port', 'HTTP server disabled (gateway.http.enabled: false)');
  const state = runningPid({ profile }) !== null ? readGatewayState({ profile }) : undefined;
  if (state?.http && (http.port === 0 || http.port === state.http.port)) return line.ok('http port', `${state.http.host}:${state.http.port} is this gateway's`);
  if (http.port === 0) return line.ok('http port', 'any free port (gateway.http.port: 0)');
  const where = `${http.host}:${http.port}`;
  const code = await tryListen({ host: http.host, port: http.port });
  if (code === null) return line.ok('http port', `${where} is free`);
  const change = `set gateway.http.port in ${profile.configPath} to a free port (or 0 for any)`;
  if (code === 'EADDRINUSE') return line.fail('http port', `${where} is taken by another program`, `Stop it (\`ss -ltnp 'sport = :${http.port}'\` shows which), or ${change}.`);
  if (code === 'EACCES') return line.fail('http port', `${where} needs privileges (ports below 1024)`, `Use a port of 1024 or more: ${change}.`);
  if (code === 'EADDRNOTAVAIL') return line.fail('http port', `${http.host} is not an address of this machine`, `Set gateway.http.host in ${profile.configPath} to 127.0.0.1 (or an address this host has).`);
  return line.fail('http port', `cannot listen on ${where} (${code})`, change);
}
