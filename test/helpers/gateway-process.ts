import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeArgsFor } from './entry.js';
import type { HealthReport } from '../../src/gateway/http/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A `gateway run` child (test/helpers/gateway-child.ts: the real code path plus the loopback platform). */
export interface GatewayProcess {
  readonly proc: ChildProcess;
  /** Everything it printed (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once it exited. */
  readonly exited: Promise<number | null>;
  /** True while it has not exited. */
  alive(): boolean;
}

/** Starts a gateway child for `profile` in HERMES_HOME `home`, polling the loopback platform at `loopbackUrl`. */
export function startGatewayProcess(params: { home: string; profile: string; loopbackUrl: string }): GatewayProcess {
  return spawnGateway({
    args: ['test/helpers/gateway-child.ts'],
    env: { PATH: process.env['PATH'] ?? '', HOME: params.home, HERMES_HOME: params.home, HERMES_TEST_PROFILE: params.profile, LOOPBACK_URL: params.loopbackUrl },
  });
}

/**
 * Starts `hermes -p <profile> gateway run` (the real CLI, killable with SIGKILL) with nothing but PATH, HOME and
 * HERMES_HOME in its environment, plus `env`; `nodeOptions` go before the script (`--import` a hook, say).
 */
export function startCliGateway(params: { home: string; profile: string; nodeOptions?: readonly string[]; env?: Readonly<Record<string, string>> }): GatewayProcess {
  return spawnGateway({
    args: ['src/cli/main.ts', '-p', params.profile, 'gateway', 'run'],
    env: { PATH: process.env['PATH'] ?? '', HOME: params.home, HERMES_HOME: params.home, ...params.env },
    ...(params.nodeOptions ? { nodeOptions: params.nodeOptions } : {}),
  });
}

/** Spawns `node <args>` (the first a .ts file: compiled, or through tsx) from the repository root, collecting its output. */
function spawnGateway(params: { args: string[]; env: NodeJS.ProcessEnv; nodeOptions?: readonly string[] }): GatewayProcess {
  let output = '';
  let exitedYet = false;
  const [script = '', ...rest] = params.args;
  const proc = spawn(process.execPath, [...(params.nodeOptions ?? []), ...nodeArgsFor(script), ...rest], {
    cwd: root,
    env: params.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      exitedYet = true;
      resolve(code);
    }),
  );
  return { proc, output: () => output, exited, alive: () => !exitedYet };
}

/** Waits (polling every 25 ms) until `check` is true; fails with `what` and the given output after `timeoutMs`. */
export async function until(params: { what: string; timeoutMs: number; check: () => boolean | Promise<boolean>; output?: () => string }): Promise<void> {
  const deadline = Date.now() + params.timeoutMs;
  while (!(await params.check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}\n${params.output?.() ?? ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The gateway's /healthz, found through the gateway.json it wrote in `profileDir`; undefined when it cannot be read. */
export async function healthOf(params: { profileDir: string }): Promise<HealthReport | undefined> {
  try {
    const state = JSON.parse(readFileSync(path.join(params.profileDir, 'gateway.json'), 'utf8')) as { http: { host: string; port: number } | null };
    if (!state.http) return undefined;
    const response = await fetch(`http://${state.http.host}:${state.http.port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return (await response.json()) as HealthReport;
  } catch {
    return undefined;
  }
}
