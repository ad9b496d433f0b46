import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** What /healthz reports. */
export interface HealthReport {
  /** `ok` when every adapter is connected, `degraded` when one is not, `draining` during shutdown. */
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
}

/** The gateway's HTTP server: health now, webhooks as adapters register them. */
export interface GatewayHttp {
  /** The fastify instance; adapters add webhook routes before `listen`. */
  readonly app: FastifyInstance;
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
}): GatewayHttp {
  const app: FastifyInstance = Fastify({
    loggerInstance: params.logger.child({ component: 'http' }) as FastifyBaseLogger,
    bodyLimit: params.bodyLimitBytes,
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: true,
    return503OnClosing: true,
  });
  app.get('/healthz', async (_request, reply) => {
    const report = params.health();
    await reply.code(report.status === 'ok' ? 200 : 503).send(report);
  });
  app.setNotFoundHandler(async (request, reply) => {
    await reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url}` });
  });
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    request.log.warn({ err: error, url: request.url, status }, 'request rejected');
    await reply.code(status).send({ error: error.code ?? 'error', message: status >= 500 ? 'internal error' : error.message });
  });
  return {
    app,
    listen: async () => {
      await app.listen({ host: params.host, port: params.port });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('HTTP server has no TCP address');
      return { host: address.address, port: address.port };
    },
    close: async () => {
      await app.close();
    },
  };
}
