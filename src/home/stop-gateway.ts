import type { Clock } from '../core/clock.js';
import { readGatewayState } from './gateway-state.js';
import { processAlive, readPidFile, runningPid } from './pid-lock.js';
import type { Profile } from './profile.js';

/** How often the stopper looks whether the gateway has exited. */
const POLL_MS = 100;

/** After SIGKILL, how long to wait for the process to disappear. */
const KILL_WAIT_MS = 5_000;

/** Sends a signal to a process (injectable for tests). */
export type SignalSender = (pid: number, signal: NodeJS.Signals) => void;

/** What stopGateway did. */
export type StopResult =
  | { readonly kind: 'not-running' }
  | { readonly kind: 'exited'; readonly pid: number }
  | { readonly kind: 'killed'; readonly pid: number }
  | { readonly kind: 'survived'; readonly pid: number };

/**
 * The pid of the profile's live gateway: from the pid lock, else (no pid file at all) from gateway.json; null when
 * none runs. A stale pid file wins over gateway.json, whose pid may belong to another process by now.
 */
export function gatewayPid(params: { profile: Profile }): number | null {
  const locked = runningPid(params);
  if (locked !== null) return locked;
  if (readPidFile(params) !== null) return null;
  const state = readGatewayState(params);
  return state !== undefined && Number.isInteger(state.pid) && state.pid > 0 && state.pid !== process.pid && processAlive({ pid: state.pid }) ? state.pid : null;
}

/** Waits (polling with `clock`) until `pid` is gone or `ms` have passed; true when it is gone. */
async function waitForExit(params: { pid: number; clock: Clock; ms: number }): Promise<boolean> {
  const deadline = params.clock.now() + params.ms;
  while (processAlive({ pid: params.pid })) {
    if (params.clock.now() >= deadline) return false;
    await params.clock.sleep(POLL_MS);
  }
  return true;
}

/**
 * Stops a profile's running gateway: SIGTERM (it drains), waits up to `graceMs`, then SIGKILL.
 * `graceMs` should be the profile's drain_timeout plus a margin.
 */
export async function stopGateway(params: { profile: Profile; clock: Clock; graceMs: number; send?: SignalSender }): Promise<StopResult> {
  const pid = gatewayPid(params);
  if (pid === null) return { kind: 'not-running' };
  const send = params.send ?? ((target: number, signal: NodeJS.Signals): void => void process.kill(target, signal));
  try {
    send(pid, 'SIGTERM');
  } catch {
    return { kind: 'exited', pid }; // it went away between the check and the signal
  }
  if (await waitForExit({ pid, clock: params.clock, ms: params.graceMs })) return { kind: 'exited', pid };
  try {
    send(pid, 'SIGKILL');
  } catch {
    return { kind: 'exited', pid };
  }
  return (await waitForExit({ pid, clock: params.clock, ms: KILL_WAIT_MS })) ? { kind: 'killed', pid } : { kind: 'survived', pid };
}
