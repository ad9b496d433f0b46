import type { Logger } from 'pino';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Clock } from '../core/clock.js';
import type { ToolDefinition } from '../tools/tool.js';
import { McpServerConnection, type McpConnect, type McpServerState } from './connection.js';
import { mcpToolDefinitions, type RefusedMcpTool } from './tools.js';

/** One server as `hermes status`, `hermes mcp list`, doctor and /status show it. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  /** Absent for a server with `enabled: false`. */
  readonly state?: McpServerState;
  /** Tools it lists that the agent is offered. */
  readonly tools: readonly string[];
  /** Tools it lists that are refused (name, filter-independent reasons). */
  readonly refused: readonly RefusedMcpTool[];
}

/** A server whose tools a new session goes without, and why (the agent is told in its prompt). */
export interface UnavailableMcpServer {
  readonly name: string;
  readonly cause: string;
}

/**
 * A profile's MCP servers (`mcp_servers`): one connection each for the enabled ones, started together; the tools a
 * new session is offered come from the servers connected at that moment.
 */
export class McpServers {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly configs: Readonly<Record<string, McpServerConfig>>;
  private readonly logger: Logger;
  /** For what status() reads without logging. */
  private readonly quiet: Logger;
  /** The definitions made from a server's current listing (once per listing, so a refusal is logged once, not per session). */
  private readonly made = new Map<string, { listed: unknown; taken: ReadonlySet<string>; takenKey: string; result: ReturnType<typeof mcpToolDefinitions> }>();

  constructor(params: {
    servers: Readonly<Record<string, McpServerConfig>>;
    clock: Clock;
    logger: Logger;
    connect: McpConnect;
    backoff?: { baseMs: number; maxMs: number };
    signal?: AbortSignal;
  }) {
    this.configs = params.servers;
    this.logger = params.logger;
    this.quiet = params.logger.child({}, { level: 'silent' });
    for (const [name, config] of Object.entries(params.servers)) {
      if (!config.enabled) continue;
      this.connections.set(
        name,
        new McpServerConnection({
          name,
          config,
          clock: params.clock,
          logger: params.logger,
          connect: params.connect,
          ...(params.backoff ? { backoff: params.backoff } : {}),
          ...(params.signal ? { signal: params.signal } : {}),
        }),
      );
    }
  }

  /** Starts every enabled server's connection (in the background). */
  start(): void {
    for (const connection of this.connections.values()) connection.start();
  }

  /** The connection of a server, when it is enabled. */
  connection(params: { name: string }): McpServerConnection | undefined {
    return this.connections.get(params.name);
  }

  /** The tools a new session gets (`taken`: the names of the tools it has already), and the servers it goes without. */
  sessionTools(params: { taken: ReadonlySet<string> }): { tools: ToolDefinition[]; unavailable: UnavailableMcpServer[] } {
    const taken = new Set(params.taken);
    const tools: ToolDefinition[] = [];
    const unavailable: UnavailableMcpServer[] = [];
    for (const [name, connection] of this.connections) {
      const state = connection.state();
      if (state.kind !== 'connected') {
        unavailable.push({ name, cause: connection.unavailableText() });
        continue;
      }
      const offered = this.definitions({ name, connection, taken });
      for (const tool of offered.tools) taken.add(tool.name);
      tools.push(...offered.tools);
    }
    return { tools, unavailable };
  }

  /** Every configured server and where it is. */
  status(): McpServerStatus[] {
    return Object.entries(this.configs).map(([name, config]) => {
      const transport = config.url === undefined ? ('stdio' as const) : ('http' as const);
      const connection = this.connections.get(name);
      if (connection === undefined) return { name, transport, tools: [], refused: [] };
      // As the last session's tools were made; a listing new since then is read quietly (its refusals are logged
      // when a session's tools are made from it).
      const offered = this.definitions({ name, connection, taken: this.made.get(name)?.taken ?? new Set(), quiet: true });
      return { name, transport, state: connection.state(), tools: offered.tools.map((tool) => tool.name), refused: offered.refused };
    });
  }

  /** Stops every server (their child processes end). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  /** The agent's tools from a server's current listing, made once per listing; `quiet`: neither logged nor remembered. */
  private definitions(params: { name: string; connection: McpServerConnection; taken: ReadonlySet<string>; quiet?: boolean }): ReturnType<typeof mcpToolDefinitions> {
    const config = this.configs[params.name];
    if (config === undefined) return { tools: [], refused: [] };
    const listed = params.connection.tools();
    const takenKey = [...params.taken].sort().join(',');
    const known = this.made.get(params.name);
    if (known !== undefined && known.listed === listed && known.takenKey === takenKey) return known.result;
    if (params.quiet === true) return mcpToolDefinitions({ server: params.name, config, listed, host: params.connection, taken: params.taken, logger: this.quiet });
    const result = mcpToolDefinitions({ server: params.name, config, listed, host: params.connection, taken: params.taken, logger: this.logger });
    // A copy: sessionTools adds each server's names to the set it passes on.
    this.made.set(params.name, { listed, taken: new Set(params.taken), takenKey, result });
    return result;
  }
}

/** The system prompt's note on servers a session goes without (empty when every server is connected). */
export function unavailableMcpNote(params: { unavailable: readonly UnavailableMcpServer[] }): string {
  if (params.unavailable.length === 0) return '';
  const lines = params.unavailable.map((server) => `- ${server.name}: ${server.cause}`);
  return [
    '## MCP servers not available',
    'These configured MCP servers were not connected when this conversation started, so their tools are missing here. If the user asks for something they would do, say the server is unavailable (and why) rather than pretending; their tools come back in a new conversation (/new) once the server is up.',
    ...lines,
  ].join('\n');
}
