import type { McpServerStatus } from './servers.js';

/** One MCP server as /healthz reports it (and `hermes status`, `hermes mcp list`, /status show it). */
export interface McpServerHealth {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly state: 'connected' | 'connecting' | 'reconnecting' | 'stopped' | 'disabled';
  /** The tools it gives new sessions (mcp_ names). */
  readonly tools: readonly string[];
  /** Tools it lists that are refused (threat scan, name too long or taken). */
  readonly refused: number;
  /** Why it is not connected, and when it is tried again. */
  readonly detail?: string;
}

/** The servers' states as /healthz reports them; `scrub` redacts secrets from failure causes (they may quote a URL with a token). */
export function mcpHealth(params: { statuses: readonly McpServerStatus[]; now: number; scrub: (text: string) => string }): McpServerHealth[] {
  return params.statuses.map((status) => {
    const common = { name: status.name, transport: status.transport, tools: status.tools, refused: status.refused.length };
    const state = status.state;
    if (state === undefined) return { ...common, state: 'disabled' as const };
    if (state.kind !== 'reconnecting') return { ...common, state: state.kind };
    const waitS = Math.max(0, Math.ceil((state.retryAt - params.now) / 1000));
    return { ...common, state: 'reconnecting' as const, detail: `${params.scrub(state.cause)}; ${waitS > 0 ? `next try in ${waitS}s` : 'trying again now'}` };
  });
}

/** One line about a server, e.g. "files: connected, 11 tools" or "github: reconnecting — fetch failed; next try in 8s". */
export function mcpServerLine(params: { server: McpServerHealth }): string {
  return `${params.server.name}: ${mcpServerState(params)}`;
}

/** Where a server is, without its name: "connected, 11 tools", "reconnecting — fetch failed; next try in 8s", ... */
export function mcpServerState(params: { server: McpServerHealth }): string {
  const { server } = params;
  const refused = server.refused > 0 ? ` (${server.refused} refused: see the log)` : '';
  switch (server.state) {
    case 'connected':
      return `connected, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}${refused}`;
    case 'reconnecting':
      return `reconnecting — ${server.detail ?? 'unknown cause'}`;
    case 'connecting':
      return 'connecting';
    case 'stopped':
      return 'stopped';
    case 'disabled':
      return 'disabled (enabled: false)';
  }
}
