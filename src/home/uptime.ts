import type { Clock } from '../core/clock.js';
import { readGatewayState } from './gateway-state.js';
import type { Profile } from './profile.js';

/** "3d 4h", "2h 5m", "4m 10s", "12s". */
export function formatUptime(params: { ms: number }): string {
  const s = Math.max(0, Math.floor(params.ms / 1000));
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60];
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${s % 60}s` : `${s}s`;
}

/** "running (pid 12, up 4m 10s)": the uptime comes from gateway.json when it was written by that pid. */
export function describeRunning(params: { profile: Profile; pid: number; clock: Clock }): string {
  const state = readGatewayState(params);
  const up = state?.pid === params.pid ? `, up ${formatUptime({ ms: params.clock.now() - state.startedAt })}` : '';
  return `running (pid ${params.pid}${up})`;
}
