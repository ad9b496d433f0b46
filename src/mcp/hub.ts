import type { Logger } from 'pino';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Clock } from '../core/clock.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { McpConnect } from './connection.js';
import type { McpReconfigured, McpServers, McpServerStatus } from './servers.js';
import { EMPTY_SNAPSHOT, parseSnapshot, snapshotText, type McpSnapshot } from './snapshot.js';
import { mcpHealth, mcpServerLine, type McpServerHealth } from './status-text.js';
import { errorMessage } from '../util/error-text.js';
import { withTimeout } from '../util/timeout.js';

/** Longest a new session waits for servers still making their first connect (each is bounded by its connect_timeout too). */
const FIRST_CONNECT_WAIT_MS = 15_000;

/**
 * A profile's MCP servers as the gateway holds them across reloads. The MCP SDK is loaded only when `mcp_servers`
 * names a server (a profile without one never loads it); until then, and without servers, every answer is empty.
 */
export class McpHub {
  private configs: Readonly<Record<string, McpServerConfig>>;
  private servers: McpServers | undefined;
  private loading: Promise<McpServers> | undefined;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly connect: McpConnect | undefined;
  private readonly backoff: { baseMs: number; maxMs: number } | undefined;
  private readonly reread: (() => Promise<Readonly<Record<string, McpServerConfig>>>) | undefined;
  private readonly scrub: (text: string) => string;
  private started = false;
  private closed = false;

  constructor(params: {
    servers: Readonly<Record<string, McpServerConfig>>;
    clock: Clock;
    logger: Logger;
    /** How a server is reached (default: the SDK's stdio and Streamable HTTP transports). */
    connect?: McpConnect;
    backoff?: { baseMs: number; maxMs: number };
    /** Reads `mcp_servers` from config.yaml again (/reload-mcp); absent: /reload-mcp reconnects the servers as configured. */
    reread?: () => Promise<Readonly<Record<string, McpServerConfig>>>;
    /** Redacts the profile's secrets from what a server lists (a description quoting a token it was given goes nowhere). */
    scrub?: (text: string) => string;
  }) {
    this.reread = params.reread;
    this.scrub = params.scrub ?? ((text) => text);
    this.configs = params.servers;
    this.clock = params.clock;
    this.logger = params.logger.child({ component: 'mcp' });
    this.connect = params.connect;
    this.backoff = params.backoff;
  }

  /** Whether the config names any server (enabled or not). */
  get configured(): boolean {
    return Object.keys(this.configs).length > 0;
  }

  /** Starts the servers' connections in the background (at the gateway's start). */
  async start(): Promise<void> {
    this.started = true;
    if (!this.configured) return;
    const servers = await this.load();
    if (!this.closed) servers.start();
  }

  /**
   * /reload-mcp: reads `mcp_servers` again and reconnects every server (a server's new version or tools are taken
   * in), waits for their first outcome (bounded) and says where each is. A config that does not load changes nothing.
   */
  async reload(params: { signal: AbortSignal }): Promise<string> {
    let servers = this.configs;
    if (this.reread !== undefined) {
      try {
        servers = await this.reread();
      } catch (error) {
        return `The MCP servers were not reloaded: config.yaml could not be read (${errorMessage(error)}). Fix it and send /reload-mcp again; the running servers are unchanged.`;
      }
    }
    await this.apply({ servers, restartAll: true });
    if (!this.configured) return 'No MCP servers are configured (mcp_servers in config.yaml).';
    await this.firstOutcomes({ signal: params.signal });
    const lines = this.health({ scrub: (text) => text }).map((server) => `• ${mcpServerLine({ server })}`);
    return ['MCP servers reloaded:', ...lines, 'New conversations (/new) get their tools; this one keeps the tools it started with.'].join('\n');
  }

  /** A reloaded `mcp_servers`: changed servers restart, new ones start, removed ones stop; sessions keep their tools. */
  async apply(params: { servers: Readonly<Record<string, McpServerConfig>>; restartAll?: boolean }): Promise<McpReconfigured | undefined> {
    this.configs = params.servers;
    const existed = this.loading !== undefined;
    if (!existed && !this.configured) return undefined;
    const servers = await this.load();
    // Servers loaded just now were made with this config.
    const enabled = Object.entries(params.servers).filter(([, config]) => config.enabled).map(([name]) => name);
    const outcome = existed ? servers.reconfigure({ servers: params.servers, ...(params.restartAll === true ? { restartAll: true } : {}) }) : { started: enabled, restarted: [], stopped: [], kept: [] };
    if (this.started && !this.closed) servers.start();
    return outcome;
  }

  /**
   * The MCP tools of a session starting now, as the text stored with its prompt: the servers connected now, the
   * others named as unavailable. Waits (at most ~15 s, and not past `signal`) for servers still making their first
   * connect, so a message sent right after a restart does not start a session without them. `wanted`: the servers the
   * session's platform enables (its tool sets). Undefined when the profile has no servers.
   */
  async newSession(params: { taken: ReadonlySet<string>; signal: AbortSignal; wanted?: (server: string) => boolean }): Promise<string | undefined> {
    if (!this.configured) return undefined;
    const servers = await this.load();
    await this.firstOutcomes({ signal: params.signal });
    const snapshot = servers.snapshot({ taken: params.taken, ...(params.wanted === undefined ? {} : { wanted: params.wanted }) });
    return snapshotText({ snapshot: scrubbedSnapshot({ snapshot, scrub: this.scrub }) });
  }

  /** Waits for the servers still making their first connect: at most ~15 s, and not past `signal`. */
  private async firstOutcomes(params: { signal: AbortSignal }): Promise<void> {
    const servers = await this.load();
    await withTimeout({ clock: this.clock, ms: FIRST_CONNECT_WAIT_MS, signal: params.signal, run: (signal) => servers.firstOutcomes({ signal }) });
  }

  /** The tools a session's stored snapshot gives its turn ([] without one, or before the servers are loaded). */
  toolsFor(params: { extraTools: string | undefined }): ToolDefinition[] {
    const text = params.extraTools;
    if (text === undefined || this.servers === undefined) return [];
    const snapshot = parseSnapshot({ text }) ?? EMPTY_SNAPSHOT;
    if (snapshot.tools.length === 0) return [];
    return this.servers.toolsFor({ snapshot, key: text });
  }

  /** Every configured server and where it is ([] without servers). */
  status(): McpServerStatus[] {
    if (this.servers !== undefined) return this.servers.status();
    return Object.entries(this.configs).map(([name, config]) => ({
      name,
      transport: config.url === undefined ? ('stdio' as const) : ('http' as const),
      ...(config.enabled ? { state: { kind: 'connecting' as const, attempt: 0 } } : {}),
      tools: [],
      refused: [],
    }));
  }

  /** Every configured server as /healthz, `hermes status` and /status show it (`scrub`: for the failure causes). */
  health(params: { scrub: (text: string) => string }): McpServerHealth[] {
    return mcpHealth({ statuses: this.status(), now: this.clock.now(), scrub: params.scrub });
  }

  /** Stops every server (their child processes end). */
  async close(): Promise<void> {
    this.closed = true;
    const servers = this.servers ?? (this.loading === undefined ? undefined : await this.loading);
    await servers?.close();
  }

  /** Loads the MCP code and makes the servers, once. */
  private load(): Promise<McpServers> {
    this.loading ??= (async () => {
      const [{ McpServers }, { connectMcp }] = await Promise.all([import('./servers.js'), import('./transport.js')]);
      const servers = new McpServers({
        servers: this.configs,
        clock: this.clock,
        logger: this.logger,
        connect: this.connect ?? connectMcp,
        ...(this.backoff === undefined ? {} : { backoff: this.backoff }),
      });
      this.servers = servers;
      return servers;
    })();
    return this.loading;
  }
}

/**
 * A snapshot with the profile's secrets redacted from what the servers said (descriptions, schemas, causes): it goes
 * into every request of the session and into the store.
 */
function scrubbedSnapshot(params: { snapshot: McpSnapshot; scrub: (text: string) => string }): McpSnapshot {
  const { scrub } = params;
  const schema = (value: Record<string, unknown>): Record<string, unknown> => {
    const text = JSON.stringify(value);
    const clean = scrub(text);
    if (clean === text) return value;
    try {
      return JSON.parse(clean) as Record<string, unknown>;
    } catch {
      return { type: 'object', properties: {} };
    }
  };
  return {
    tools: params.snapshot.tools.map((tool) => ({ ...tool, description: scrub(tool.description), inputSchema: schema(tool.inputSchema) })),
    unavailable: params.snapshot.unavailable.map((server) => ({ ...server, cause: scrub(server.cause) })),
  };
}
