import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Clock } from '../core/clock.js';
import type { ToolDefinition } from '../tools/tool.js';
import { whenAborted } from '../util/when-aborted.js';
import { McpServerConnection, McpUnavailableError, type McpConnect, type McpServerState } from './connection.js';
import type { McpSnapshot, McpSnapshotTool, McpUnavailableServer } from './snapshot.js';
import { mcpTool, offerMcpTools, type McpToolHost, type RefusedMcpTool } from './tools.js';

/** One server as `hermes status`, `hermes mcp list`, doctor and /status show it. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  /** Absent for a server with `enabled: false`. */
  readonly state?: McpServerState;
  /** Tools it lists that the agent is offered (the mcp_ names, wrappers included). */
  readonly tools: readonly string[];
  /** Tools it lists that are refused (name, filter-independent reasons). */
  readonly refused: readonly RefusedMcpTool[];
}

/** What a reconfigure did to each server, by name. */
export interface McpReconfigured {
  readonly started: readonly string[];
  readonly restarted: readonly string[];
  readonly stopped: readonly string[];
  readonly kept: readonly string[];
}

/** What a server's offered tools were made from (once per listing, so a refusal is logged once, not per session). */
interface Offered {
  readonly listed: unknown;
  readonly takenKey: string;
  readonly result: ReturnType<typeof offerMcpTools>;
}

/** How the servers are built (kept for reconfigure). */
interface ServersSetup {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly connect: McpConnect;
  readonly backoff?: { baseMs: number; maxMs: number };
}

/**
 * A profile's MCP servers (`mcp_servers`): one connection each for the enabled ones, started together. A new
 * session's tools are a snapshot of the servers connected when it starts (stored with it: see snapshot.ts); each turn
 * makes the snapshot's tools again against the live connections and the current settings.
 */
export class McpServers {
  private readonly connections = new Map<string, McpServerConnection>();
  private configs: Readonly<Record<string, McpServerConfig>> = {};
  private readonly setup: ServersSetup;
  /** For what status() reads without logging. */
  private readonly quiet: Logger;
  private readonly offered = new Map<string, Offered>();
  /** The names of the tools the built-in ones took, as the last snapshot saw them (status reads against them). */
  private lastTaken: ReadonlySet<string> = new Set();
  /** The tools made from a stored snapshot's text, for its session's next turns (a few sessions are active at once). */
  private readonly made = new Map<string, ToolDefinition[]>();
  /** start() was called (servers added by a reconfigure start at once) and close() was not. */
  private running = false;

  constructor(params: ServersSetup & { servers: Readonly<Record<string, McpServerConfig>> }) {
    this.setup = params;
    this.quiet = params.logger.child({}, { level: 'silent' });
    this.reconfigure({ servers: params.servers });
  }

  /** Starts every enabled server's connection (in the background). */
  start(): void {
    this.running = true;
    for (const connection of this.connections.values()) connection.start();
  }

  /** The connection of a server, when it is enabled. */
  connection(params: { name: string }): McpServerConnection | undefined {
    return this.connections.get(params.name);
  }

  /** Resolves once every server's first attempt to connect has ended (each is bounded by its connect_timeout) or `signal` aborts. */
  async firstOutcomes(params: { signal: AbortSignal }): Promise<void> {
    const all = Promise.all([...this.connections.values()].map((connection) => connection.firstOutcome()));
    await Promise.race([all, whenAborted({ signal: params.signal })]);
  }

  /**
   * The MCP tools a new session is offered (`taken`: the names of the built-in tools; `wanted`: the servers its tool
   * sets enable, default all), and the servers it goes without.
   */
  snapshot(params: { taken: ReadonlySet<string>; wanted?: (server: string) => boolean }): McpSnapshot {
    const taken = new Set(params.taken);
    this.lastTaken = new Set(params.taken);
    const tools: McpSnapshotTool[] = [];
    const unavailable: McpUnavailableServer[] = [];
    for (const [name, connection] of this.connections) {
      // A server the session's tool sets leave out is neither offered nor named as unavailable.
      if (params.wanted !== undefined && !params.wanted(name)) continue;
      if (connection.state().kind !== 'connected') {
        unavailable.push({ name, cause: connection.unavailableText() });
        continue;
      }
      const { offered } = this.offer({ name, connection, taken });
      for (const tool of offered) taken.add(tool.name);
      tools.push(...offered);
    }
    return { tools, unavailable };
  }

  /**
   * A snapshot's tools as the agent's, each calling its server's live connection with the server's current settings;
   * a server no longer configured (or disabled) fails its tools' calls, saying so. `key`: the stored text the snapshot
   * came from (its tools are made once while its session is active).
   */
  toolsFor(params: { snapshot: McpSnapshot; key: string }): ToolDefinition[] {
    const known = this.made.get(params.key);
    if (known !== undefined) return known;
    const tools = params.snapshot.tools.map((entry) => {
      const config = this.configs[entry.server];
      const host: McpToolHost = { request: (request) => this.hostOf({ server: entry.server }).request(request) };
      return config === undefined ? goneTool({ entry }) : mcpTool({ entry, config, host });
    });
    if (this.made.size >= 64) this.made.delete(this.made.keys().next().value ?? '');
    this.made.set(params.key, tools);
    return tools;
  }

  /** Every configured server and where it is. */
  status(): McpServerStatus[] {
    return Object.entries(this.configs).map(([name, config]) => {
      const transport = config.url === undefined ? ('stdio' as const) : ('http' as const);
      const connection = this.connections.get(name);
      if (connection === undefined) return { name, transport, tools: [], refused: [] };
      // Against the built-in tools the last session saw; read quietly (a listing's refusals are logged when a
      // session's snapshot is made from it).
      const { offered, refused } = this.offer({ name, connection, taken: this.lastTaken, quiet: true });
      return { name, transport, state: connection.state(), tools: offered.map((tool) => tool.name), refused };
    });
  }

  /**
   * Applies a new `mcp_servers` (config reload): a server whose settings changed is restarted (every one with
   * `restartAll`: /reload-mcp), a new one started, a removed or disabled one stopped; the others keep their
   * connection. Sessions keep their snapshots.
   */
  reconfigure(params: { servers: Readonly<Record<string, McpServerConfig>>; restartAll?: boolean }): McpReconfigured {
    const before = this.configs;
    const out = { started: [] as string[], restarted: [] as string[], stopped: [] as string[], kept: [] as string[] };
    for (const [name, connection] of this.connections) {
      const next = params.servers[name];
      if (next !== undefined && next.enabled && isDeepStrictEqual(next, before[name]) && params.restartAll !== true) continue;
      this.connections.delete(name);
      this.offered.delete(name);
      void connection.close();
      if (next === undefined || !next.enabled) out.stopped.push(name);
    }
    this.configs = params.servers;
    this.made.clear();
    for (const [name, config] of Object.entries(params.servers)) {
      if (!config.enabled) continue;
      if (this.connections.has(name)) {
        out.kept.push(name);
        continue;
      }
      (before[name]?.enabled === true ? out.restarted : out.started).push(name);
      const connection = new McpServerConnection({ name, config, ...this.setup });
      this.connections.set(name, connection);
      if (this.running) connection.start();
    }
    return out;
  }

  /** Stops every server (their child processes end). */
  async close(): Promise<void> {
    this.running = false;
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  /** The live connection a snapshot's tool calls: the server's current one, or one that says it is gone. */
  private hostOf(params: { server: string }): Pick<McpServerConnection, 'request'> {
    const connection = this.connections.get(params.server);
    if (connection !== undefined) return connection;
    const gone = (): Promise<unknown> => Promise.reject(new McpUnavailableError(`MCP server "${params.server}" is disabled now; its tools no longer work.`));
    return { request: gone };
  }

  /** The tools a server's current listing offers, made once per listing; `quiet`: neither logged nor remembered. */
  private offer(params: { name: string; connection: McpServerConnection; taken: ReadonlySet<string>; quiet?: boolean }): ReturnType<typeof offerMcpTools> {
    const config = this.configs[params.name];
    const state = params.connection.state();
    if (config === undefined || state.kind !== 'connected') return { offered: [], refused: [] };
    const listed = params.connection.tools();
    const takenKey = [...params.taken].sort().join(',');
    const known = this.offered.get(params.name);
    if (known !== undefined && known.listed === listed && known.takenKey === takenKey) return known.result;
    const has = { resources: state.resources, prompts: state.prompts };
    const logger = params.quiet === true ? this.quiet : this.setup.logger;
    const result = offerMcpTools({ server: params.name, config, listed, has, taken: params.taken, logger });
    if (params.quiet !== true) this.offered.set(params.name, { listed, takenKey, result });
    return result;
  }
}

/** A stored tool of a server the config no longer has: the model is told so when it calls it. */
function goneTool(params: { entry: McpSnapshotTool }): ToolDefinition {
  const { entry } = params;
  const host: McpToolHost = { request: () => Promise.reject(new McpUnavailableError(`MCP server "${entry.server}" is no longer configured; its tools no longer work.`)) };
  // The settings only decide how a call runs; it never runs.
  return mcpTool({ entry, config: GONE_CONFIG, host });
}

/** Settings for goneTool's calls: nothing to approve, nothing to wait for. */
const GONE_CONFIG: McpServerConfig = {
  args: [],
  env: {},
  headers: {},
  enabled: false,
  timeout: 1,
  connect_timeout: 1,
  tools: { include: [], exclude: [], resources: false, prompts: false },
  approval: 'off',
};
