// Waiting for a spawned `hermes gateway run` child to be ready: gateway.json written, then /healthz "ok".
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GatewayStateFile } from '../src/home/gateway-state.js';

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
