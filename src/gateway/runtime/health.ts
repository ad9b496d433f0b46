import type { HealthReport } from '../http/server.js';
import type { AdapterStatus } from './supervisor.js';
import type { McpServerHealth } from '../../mcp/status-text.js';
import { diskHealthReport, type DiskStatus } from '../ops/disk-health.js';
import { modelHealth, type ModelStatus } from '../ops/model-watch.js';

/**
 * The /healthz report: `ok` when every adapter is connected, the model answers, the disk takes writes and every
 * enabled MCP server is connected (or still making its first connect),
 * `degraded` otherwise, `starting` / `draining` around the runner's life. Error texts are scrubbed (they may quote a
 * secret, and /healthz may be reachable from outside).
 */
export function gatewayHealth(params: {
  phase: 'new' | 'running' | 'draining' | 'stopped';
  profileName: string;
  startedAt: number;
  now: number;
  adapters: readonly AdapterStatus[];
  model: ModelStatus | undefined;
  disk: DiskStatus;
  /** The MCP servers (none configured: empty). */
  mcp: readonly McpServerHealth[];
  scrub: (text: string) => string;
}): HealthReport {
  const { phase, adapters, model, disk, scrub, mcp } = params;
  // A configured server that is down is a tool the owner expects missing: degraded, as a down adapter is.
  const mcpDown = mcp.some((server) => server.state === 'reconnecting' || server.state === 'stopped');
  const healthy = adapters.every((a) => a.state === 'connected') && model?.state !== 'fail' && disk.state === 'ok' && !mcpDown;
  const status = phase === 'draining' || phase === 'stopped' ? 'draining' : phase === 'new' ? 'starting' : healthy ? 'ok' : 'degraded';
  return {
    status,
    profile: params.profileName,
    uptimeSeconds: params.startedAt === 0 ? 0 : Math.round((params.now - params.startedAt) / 1000),
    adapters: adapters.map((a) => ({ ...a, since: new Date(a.since).toISOString(), lastError: a.lastError === null ? null : scrub(a.lastError) })),
    ...(model ? { model: modelHealth({ status: model, scrub }) } : {}),
    ...(mcp.length > 0 ? { mcp } : {}),
    disk: diskHealthReport({ status: disk }),
  };
}
