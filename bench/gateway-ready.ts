// The built `hermes gateway run` as a bench child, and waiting for it to be ready: gateway.json written, then
// /healthz "ok".
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS, processEnv } from '../src/cli/node-flags.js';
import type { GatewayStateFile } from '../src/home/gateway-state.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Spawns the built CLI (`dist/`: `npm run build` first) as `hermes -p bench gateway run` for HERMES_HOME `home`, the
 * way `hermes` runs for a user: node with NODE_FLAGS and the launcher's environment. `nodeArgs` go after the flags,
 * before the script (`--cpu-prof`, say); `env` is added to PATH, HOME and HERMES_HOME.
 */
export function spawnBuiltGateway(params: { home: string; nodeArgs?: readonly string[]; env?: Readonly<Record<string, string>>; stdio: StdioOptions }): ChildProcess {
  return spawn(process.execPath, [...NODE_FLAGS, ...(params.nodeArgs ?? []), 'dist/src/cli/main.js', '-p', 'bench', 'gateway', 'run'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: params.home, HERMES_HOME: params.home, ...processEnv({ env: process.env }), ...params.env },
    stdio: params.stdio,
  });
}

/** When a child became ready, in ms after `since`. */
export interface Readiness {
  /** gateway.json written (HTTP listening, adapters starting). */
  readonly listeningMs: number;
  /** /healthz says every adapter is connected. */
  readonly readyMs: number;
  readonly state: GatewayStateFile;
}

/** The profile's gateway.json, or undefined before the gateway wrote it. */
function readState(params: { dir: string }): GatewayStateFile | undefined {
  try {
    return JSON.parse(readFileSync(path.join(params.dir, 'gateway.json'), 'utf8')) as GatewayStateFile;
  } catch {
    return undefined;
  }
}

/** /healthz status of a gateway, or undefined when it does not answer yet. */
async function health(params: { state: GatewayStateFile }): Promise<string | undefined> {
  const http = params.state.http;
  if (!http) return undefined;
  try {
    const res = await fetch(`http://${http.host}:${http.port}/healthz`);
    return ((await res.json()) as { status?: string }).status;
  } catch {
    return undefined;
  }
}

/**
 * Polls every 20 ms until the gateway of profile folder `dir` wrote gateway.json and its /healthz says "ok"; throws
 * when the child exits first or `timeoutMs` passes. Times are measured from `since` (a performance.now()).
 */
export async function waitReady(params: { child: ChildProcess; dir: string; since: number; timeoutMs: number }): Promise<Readiness> {
  let listening: number | undefined;
  for (;;) {
    if (params.child.exitCode !== null) throw new Error(`the gateway exited with ${params.child.exitCode} before it was ready`);
    if (performance.now() - params.since > params.timeoutMs) throw new Error(`the gateway was not ready within ${params.timeoutMs / 1000} s`);
    const state = readState({ dir: params.dir });
    if (state) listening ??= performance.now() - params.since;
    if (state && (await health({ state })) === 'ok') return { listeningMs: listening ?? Number.NaN, readyMs: performance.now() - params.since, state };
    await new Promise((r) => setTimeout(r, 20));
  }
}
