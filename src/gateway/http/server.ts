import type { McpServerHealth } from '../../mcp/status-text.js';
import { createServer, type Server } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { UserFacingError } from '../../core/errors.js';
import type { GatewayMetrics } from '../ops/metrics.js';
import type { Clock } from '../../core/clock.js';
import { RejectionLog } from './rejection-log.js';
import { applyCommonHandlers, WebhookMounts } from './webhook-mounts.js';
import { errorCodeText, errorMessage } from '../../util/error-text.js';
import { lazyChild } from '../../log/component.js';

/** How long a client may take to send a request; slower ones get 408 and are disconnected. */
export interface HttpTimeouts {
  /** From connecting (or the request's first byte) until the headers are complete. */
  readonly headersMs: number;
  /** From the request's first byte until the whole body is in (a trickled body is cut off here). */
  readonly requestMs: number;
  /** How often node checks the two above (it checks on an interval, not per socket). */
  readonly checkIntervalMs: number;
}

/** Webhook senders (Telegram, Slack, Twilio) send a few kilobytes at once: 10 s is plenty. */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 10_000, checkIntervalMs: 1_000 };

/** What /healthz reports. */
export interface HealthReport {
  /** `ok` when every adapter is connected, the model answers and the disk takes writes; `degraded` otherwise, `draining` during shutdown. */
  readonly status: 'ok' | 'degraded' | 'draining' | 'starting';
  readonly profile: string;
  readonly uptimeSeconds: number;
  readonly adapters: readonly {
    readonly name: string;
    readonly state: string;
    readonly since: string;
    readonly lastError: string | null;
    readonly restarts: number;
  }[];
  /** The model endpoint as the gateway last found it (checked at start, then every few minutes). */
  readonly model?: {
    readonly state: 'ok' | 'warn' | 'fail' | 'unknown';
    readonly label: string;
    readonly detail: string;
    readonly fix?: string;
    readonly checkedAt: string | null;
  };
  /** The profile's MCP servers (absent without any): where each is and the tools it gives new sessions. */
  readonly mcp?: readonly McpServerHealth[];
  /** Whether the profile's disk takes writes (log file, store, state file); `reason` says why not ("disk full"). */
  readonly disk?:
    | { readonly state: 'ok' }
    | {
        readonly state: 'degraded';
        readonly reason: string;
        readonly problems: readonly { readonly part: string; readonly detail: string; readonly since: string }[];
      };
}

/** The gateway's HTTP server: health now, webhooks as adapters register them. */
export interface GatewayHttp {
  /** The fastify instance of the gateway's own routes (/healthz); fixed once it listens. */
  readonly app: FastifyInstance;
  /** Each platform's webhook routes, replaceable while listening (config reload). */
  readonly webhooks: WebhookMounts;
  /** The registry GET /metrics serves (gateway.http.metrics), which the runner feeds; absent when off. */
  readonly metrics?: GatewayMetrics;
  /** Starts listening; resolves with the bound address (port 0 picks a free one). */
  listen(): Promise<{ host: string; port: number }>;
  /** Stops accepting and closes open connections. */
  close(): Promise<void>;
}

/** Builds the HTTP server with /healthz. Binding is explicit: loopback unless configured otherwise. */
export function createHttpServer(params: {
  host: string;
  port: number;
  bodyLimitBytes: number;
  logger: Logger;
  health: () => HealthReport;
  /** Times the rate limit of rejection log lines. */
  clock: Clock;
  /** Request timeouts (default DEFAULT_HTTP_TIMEOUTS). */
  timeouts?: HttpTimeouts;
  /** Serves GET /metrics (Prometheus text) from this registry when given (gateway.http.metrics); absent: 404. */
  metrics?: GatewayMetrics;
}): GatewayHttp {
  const rejections = new RejectionLog({ logger: params.logger.child({ component: 'http' }), clock: params.clock });
  const webhooks = new WebhookMounts({ logger: params.logger, bodyLimitBytes: params.bodyLimitBytes, rejections });
  const timeouts = params.timeouts ?? DEFAULT_HTTP_TIMEOUTS;
  // Typed as fastify's logger, so the instance is a plain FastifyInstance (pino's own type carries extra fields).
  const httpLogger: FastifyBaseLogger = params.logger.child({ component: 'http' });
  const app: FastifyInstance = Fastify({
    loggerInstance: httpLogger,
    bodyLimit: params.bodyLimitBytes,
    logController: new LogController({ disableRequestLogging: true }),
    // A request's logger (its reqId) is made only if the request logs at a level that is on.
    childLoggerFactory: (logger, bindings) => lazyChild({ logger: logger as Logger, bindings }),
    forceCloseConnections: true,
    return503OnClosing: true,
    // The gateway's own routes first, then the current webhook routes of each platform, then 404.
    serverFactory: (handler) =>
      withIdleCutoff({
        server: createServer({ headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkIntervalMs }, (req, res) => {
          const url = (req.url ?? '/').split('?')[0] ?? '/';
          const own = app.findRoute({ method: req.method ?? 'GET', url });
          if (!own && webhooks.dispatch({ req, res })) return;
          handler(req, res);
        }),
        ms: timeouts.headersMs,
      }),
  });
  app.get('/healthz', async (_request, reply) => {
    const report = params.health();
    await reply.code(report.status === 'ok' ? 200 : 503).send(report);
  });
  const metrics = params.metrics;
  if (metrics !== undefined) {
    app.get('/metrics', async (_request, reply) => {
      await reply.code(200).header('content-type', metrics.contentType).send(await metrics.text());
    });
  }
  applyCommonHandlers({ app, rejections });
  return {
    app,
    webhooks,
    ...(metrics === undefined ? {} : { metrics }),
    listen: async () => {
      await webhooks.settled();
      try {
        await app.listen({ host: params.host, port: params.port });
      } catch (error: unknown) {
        throw listenFailure({ error, host: params.host, port: params.port });
      }
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('HTTP server has no TCP address');
      return { host: address.address, port: address.port };
    },
    close: async () => {
      await app.close();
      await webhooks.close();
      rejections.close();
    },
  };
}

/**
 * Node's header timeout starts with a request's first byte: a connection that never sends one would stay open.
 * Each new connection gets `ms` to start its request (node then times the request; keep-alive idling has its own
 * timeout).
 */
function withIdleCutoff(params: { server: Server; ms: number }): Server {
  params.server.on('connection', (socket) => socket.setTimeout(params.ms));
  params.server.on('request', (req) => req.socket.setTimeout(0));
  return params.server;
}

/**
 * Turns a failed `listen` into a UserFacingError that names the address, the config key to change and what
 * to do (exit code 1: it is usually the machine, not the config, that is in the way).
 */
export function listenFailure(params: { error: unknown; host: string; port: number }): UserFacingError {
  const { error, host, port } = params;
  const code = errorCodeText(error);
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const cannot = `the HTTP server cannot listen on ${address}`;
  switch (code) {
    case 'EADDRINUSE':
      return new UserFacingError({
        message: `${cannot}: port ${port} is already in use (gateway.http.port)`,
        hint: `Stop the other process using port ${port} (perhaps another hermes gateway), or set gateway.http.port in config.yaml to another port (0 picks any free one).`,
        cause: error,
      });
    case 'EACCES':
      return new UserFacingError({
        message: `${cannot}: permission denied (gateway.http.host / gateway.http.port)`,
        hint: 'Ports below 1024 need special privileges: set gateway.http.port in config.yaml to 1024 or above (0 picks any free one), or check gateway.http.host.',
        cause: error,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UserFacingError({
        message: `${cannot}: ${host} is not an address of this machine (gateway.http.host)`,
        hint: 'Set gateway.http.host in config.yaml to 127.0.0.1 (or another address of this machine); gateway.http.port stays as it is.',
        cause: error,
      });
    default:
      return new UserFacingError({
        message: `${cannot}: ${errorMessage(error)} (gateway.http.host / gateway.http.port)`,
        hint: 'Check gateway.http.host and gateway.http.port in config.yaml (port 0 picks any free one), or set gateway.http.enabled: false.',
        cause: error,
      });
  }
}
