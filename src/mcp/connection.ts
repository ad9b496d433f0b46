import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Logger } from 'pino';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Clock } from '../core/clock.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { backoffDelay } from '../util/backoff.js';
import { withTimeout } from '../util/timeout.js';
import { errorMessage } from '../util/error-text.js';
import type { McpToolKind } from './snapshot.js';

/** A tool as the server lists it. */
export interface McpToolInfo {
  readonly name: string;
  readonly description: string;
  /** Its arguments' JSON Schema. */
  readonly inputSchema: Record<string, unknown>;
  /** The server says the tool changes nothing (annotations.readOnlyHint). */
  readonly readOnly: boolean;
}

/** Where a server's connection is. */
export type McpServerState =
  | { readonly kind: 'connecting'; readonly attempt: number }
  | { readonly kind: 'connected'; readonly since: number; readonly resources: boolean; readonly prompts: boolean }
  | { readonly kind: 'reconnecting'; readonly cause: string; readonly attempt: number; readonly retryAt: number }
  | { readonly kind: 'stopped' };

/** A call that could not be made because the server is not connected (the model is told, the call fails alone). */
export class McpUnavailableError extends Error {
  override readonly name = 'McpUnavailableError';
}

/** Makes a connected SDK client for a config (tests may give their own). */
export type McpConnect = (params: { name: string; config: McpServerConfig; signal: AbortSignal; onStderr: (line: string) => void }) => Promise<{ client: Client; transport: Transport }>;

/** Every page of a server's tool list (each page's request within `timeoutMs`). */
export async function listServerTools(params: { client: Client; signal: AbortSignal; timeoutMs?: number }): Promise<McpToolInfo[]> {
  const out: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await params.client.listTools(cursor === undefined ? {} : { cursor }, { signal: params.signal, ...(params.timeoutMs === undefined ? {} : { timeout: params.timeoutMs }) });
    for (const tool of page.tools) {
      out.push({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema, readOnly: tool.annotations?.readOnlyHint === true });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined && !params.signal.aborted);
  return out;
}

/** Most lines of a stdio server's stderr kept for a failure's cause. */
const STDERR_LINES = 20;

/**
 * One MCP server of a profile: connects in the background (spawn or HTTP, handshake, tool list, within
 * `connect_timeout`), reconnects with backoff when the server fails to start, dies or drops the connection, and
 * re-fetches its tools on `notifications/tools/list_changed`. A call times out alone (`timeout`) and never
 * unregisters the server. Stops with `close()` or the signal.
 */
export class McpServerConnection {
  readonly name: string;
  private readonly config: McpServerConfig;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly connect: McpConnect;
  private readonly backoff: { readonly baseMs: number; readonly maxMs: number };
  private readonly onToolsChanged: () => void;
  private readonly stopper = new AbortController();
  private current: { client: Client; transport: Transport } | undefined;
  private listed: readonly McpToolInfo[] = [];
  private status: McpServerState = { kind: 'connecting', attempt: 0 };
  private readonly stderr: string[] = [];
  /** The cause of the last failure logged as a warning (the same one again is logged at debug). */
  private loggedCause: string | undefined;
  private loop: Promise<void> | undefined;
  /** Settles when the current connection closed (or close() was called), and what settles it. */
  private whenClosed: Promise<string> = Promise.resolve('stopped');
  private closed: ((cause: string) => void) | undefined;
  private firstEnded: () => void = () => undefined;
  private readonly first = new Promise<void>((resolve) => (this.firstEnded = resolve));

  constructor(params: {
    name: string;
    config: McpServerConfig;
    clock: Clock;
    logger: Logger;
    connect: McpConnect;
    backoff?: { baseMs: number; maxMs: number };
    /** Told after the tool list changed (a reconnect or the server's list_changed). */
    onToolsChanged?: () => void;
    signal?: AbortSignal;
  }) {
    this.name = params.name;
    this.config = params.config;
    this.clock = params.clock;
    this.logger = params.logger;
    this.connect = params.connect;
    this.backoff = params.backoff ?? { baseMs: 1_000, maxMs: 60_000 };
    this.onToolsChanged = params.onToolsChanged ?? (() => undefined);
    params.signal?.addEventListener('abort', () => void this.close(), { once: true });
  }

  /** Starts connecting (in the background); `firstOutcome()` resolves at the first outcome. */
  start(): void {
    this.loop ??= this.run();
  }

  /** Where the connection is now. */
  state(): McpServerState {
    return this.status;
  }

  /** The tools of the last successful listing (kept while reconnecting: a session's tool list does not change). */
  tools(): readonly McpToolInfo[] {
    return this.listed;
  }

  /** The last lines the server wrote to stderr (stdio servers), for a failure's cause. */
  stderrTail(): readonly string[] {
    return this.stderr;
  }

  /**
   * One request within `timeout`: a call of one of the server's tools (its own name), or a resource or prompt
   * wrapper's request; McpUnavailableError when not connected.
   */
  async request(params: { kind: McpToolKind; tool: string; args: Record<string, unknown>; signal: AbortSignal }): Promise<unknown> {
    const client = this.connectedClient();
    const options = { timeout: this.config.timeout, signal: params.signal };
    const send = wrapperRequest({ client, kind: params.kind, tool: params.tool, args: params.args });
    try {
      return await send(options);
    } catch (error) {
      throw this.failed({ error, signal: params.signal });
    }
  }

  /** Resolves once the first attempt to connect has ended (connected or failed), or at close. */
  firstOutcome(): Promise<void> {
    return this.first;
  }

  /**
   * What a failed request means: the server's own answer (McpError: a tool error, a timeout) or the caller's abort
   * leave the connection as it is; anything else (an HTTP server gone: fetch failed) is a lost connection, which
   * starts the reconnect and fails the call as unavailable.
   */
  private failed(params: { error: unknown; signal: AbortSignal }): unknown {
    if (params.error instanceof McpError || params.signal.aborted || this.status.kind !== 'connected') return params.error;
    this.logger.warn({ server: this.name, err: params.error }, `MCP server ${this.name}: a request failed (${errorMessage(params.error)}); reconnecting`);
    const cause = `a request failed: ${errorMessage(params.error)}`;
    this.status = { kind: 'reconnecting', cause, attempt: 0, retryAt: this.clock.now() };
    this.closed?.(cause);
    return new McpUnavailableError(this.unavailableText());
  }

  /** The client when connected, else McpUnavailableError saying where the server is. */
  connectedClient(): Client {
    const state = this.status;
    if (this.current === undefined || state.kind !== 'connected') throw new McpUnavailableError(this.unavailableText());
    return this.current.client;
  }

  /** Why the server cannot take a call now, for the model and the owner. */
  unavailableText(): string {
    const state = this.status;
    switch (state.kind) {
      case 'connecting':
        return `MCP server "${this.name}" is still starting; try again in a moment.`;
      case 'reconnecting': {
        const waitMs = state.retryAt - this.clock.now();
        const next = waitMs > 0 ? `the next attempt is in ${Math.ceil(waitMs / 1000)}s` : 'it is being tried again now';
        return `MCP server "${this.name}" is reconnecting (${state.cause}); ${next}. Try again later or do without it.`;
      }
      case 'stopped':
        return `MCP server "${this.name}" is stopped.`;
      case 'connected':
        return `MCP server "${this.name}" is connected.`;
    }
  }

  /** Stops the server (its child process ends) and the reconnect loop. */
  async close(): Promise<void> {
    this.stopper.abort();
    this.firstEnded();
    this.closed?.('stopped');
    await this.loop;
  }

  private async run(): Promise<void> {
    const signal = this.stopper.signal;
    for (let attempt = 0; !signal.aborted; attempt++) {
      if (attempt === 0 || this.status.kind !== 'reconnecting') this.status = { kind: 'connecting', attempt };
      let cause: string;
      try {
        await this.open({ signal });
        this.firstEnded();
        attempt = 0;
        cause = await this.untilClosed();
      } catch (error) {
        cause = `${errorMessage(error)}${this.stderrCause()}`;
      }
      await this.dispose();
      if (signal.aborted) break;
      const delay = backoffDelay({ attempt, baseMs: this.backoff.baseMs, maxMs: this.backoff.maxMs });
      this.status = { kind: 'reconnecting', cause, attempt: attempt + 1, retryAt: this.clock.now() + delay };
      this.firstEnded();
      // One warning per cause: a server down for hours retries every minute without a line each time.
      const repeated = cause === this.loggedCause;
      this.loggedCause = cause;
      (repeated ? this.logger.debug : this.logger.warn).call(this.logger, { server: this.name, retryInMs: delay, attempt: attempt + 1 }, `MCP server ${this.name} is unavailable: ${cause}; reconnecting`);
      try {
        await this.clock.sleep(delay, signal);
      } catch {
        break;
      }
    }
    this.status = { kind: 'stopped' };
    this.firstEnded();
  }

  /** Connects and lists the tools within connect_timeout. */
  private async open(params: { signal: AbortSignal }): Promise<void> {
    this.stderr.length = 0;
    await withTimeout({
      clock: this.clock,
      ms: this.config.connect_timeout,
      signal: params.signal,
      run: async (signal) => {
        this.whenClosed = new Promise<string>((resolve) => (this.closed = resolve));
        const connected = await this.connect({ name: this.name, config: this.config, signal, onStderr: (line) => this.keepStderr(line) });
        this.current = connected;
        connected.client.onclose = () => this.closed?.(`the connection closed${this.stderrCause()}`);
        connected.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          // Before the first listing below (servers announce their tools as they start) there is nothing to refresh.
          if (this.status.kind !== 'connected') return;
          this.refreshTools().catch((error: unknown) => this.logger.warn({ server: this.name, err: error }, `MCP server ${this.name}: its changed tool list could not be read`));
        });
        const capabilities = connected.client.getServerCapabilities() ?? {};
        this.listed = capabilities.tools === undefined ? [] : await listServerTools({ client: connected.client, signal, timeoutMs: this.config.timeout });
        this.status = { kind: 'connected', since: this.clock.now(), resources: capabilities.resources !== undefined, prompts: capabilities.prompts !== undefined };
      },
    });
    const tools = this.listed;
    this.logger.info({ server: this.name, tools: tools.length }, `MCP server ${this.name} connected${this.loggedCause === undefined ? '' : ' again'}`);
    this.loggedCause = undefined;
    this.onToolsChanged();
  }

  /** Re-lists the tools after the server said they changed (the change reaches new sessions). */
  async refreshTools(): Promise<void> {
    const client = this.connectedClient();
    this.listed = await listServerTools({ client, signal: this.stopper.signal, timeoutMs: this.config.timeout });
    this.logger.info({ server: this.name, tools: this.listed.length }, `MCP server ${this.name} changed its tools`);
    this.onToolsChanged();
  }

  /** Resolves with why the current connection ended. */
  private untilClosed(): Promise<string> {
    return this.stopper.signal.aborted ? Promise.resolve('stopped') : this.whenClosed;
  }

  private async dispose(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    this.closed = undefined;
    if (current === undefined) return;
    current.client.onclose = undefined;
    await current.client.close().catch(() => undefined);
  }

  private keepStderr(line: string): void {
    this.stderr.push(line);
    if (this.stderr.length > STDERR_LINES) this.stderr.shift();
  }

  private stderrCause(): string {
    const last = this.stderr.at(-1);
    return last === undefined ? '' : ` (its last line on stderr: ${last.slice(0, 300)})`;
  }
}

/** A required string argument of a wrapper's request (the model is told when it is missing). */
function requiredString(params: { args: Record<string, unknown>; key: string }): string {
  const value = params.args[params.key];
  if (typeof value !== 'string' || value === '') throw new TypeError(`the argument "${params.key}" (a string) is missing`);
  return value;
}

/** A prompt's arguments as the protocol takes them: strings by name (other values as JSON). */
function stringRecord(params: { value: unknown }): Record<string, string> {
  if (typeof params.value !== 'object' || params.value === null) return {};
  return Object.fromEntries(Object.entries(params.value).map(([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** The SDK request a tool call or wrapper makes (its arguments checked first: a missing one is the model's mistake, not the connection's). */
function wrapperRequest(params: { client: Client; kind: McpToolKind; tool: string; args: Record<string, unknown> }): (options: RequestOptions) => Promise<unknown> {
  const { client, args } = params;
  const cursor = typeof args['cursor'] === 'string' ? { cursor: args['cursor'] } : {};
  switch (params.kind) {
    case 'tool':
      return (options) => client.callTool({ name: params.tool, arguments: args }, undefined, options);
    case 'list_resources':
      return (options) => client.listResources(cursor, options);
    case 'read_resource': {
      const uri = requiredString({ args, key: 'uri' });
      return (options) => client.readResource({ uri }, options);
    }
    case 'list_prompts':
      return (options) => client.listPrompts(cursor, options);
    case 'get_prompt': {
      const name = requiredString({ args, key: 'name' });
      return (options) => client.getPrompt({ name, arguments: stringRecord({ value: args['arguments'] }) }, options);
    }
  }
}
