import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RejectionLog } from './rejection-log.js';
import type { RejectionReason } from '../../core/rejection.js';

/** Registers one adapter instance's webhook routes on the scope it is given; rejections are logged through `rejections`. */
export type RouteRegistrar = (params: { app: FastifyInstance; rejections: RejectionLog }) => void;

/** The settings every route scope (the main app and each platform's) shares. */
export interface ScopeSettings {
  readonly logger: Logger;
  readonly bodyLimitBytes: number;
  /** The server's rate-limited log of rejected requests, shared by every scope. */
  readonly rejections: RejectionLog;
}

/** The rate-limit bucket of a request fastify itself refused (body too large, not JSON, wrong content type, ...). */
function reasonOf(params: { status: number }): RejectionReason {
  if (params.status >= 500) return 'internal';
  if (params.status === 413) return 'oversized';
  if (params.status === 408) return 'timeout';
  return 'malformed';
}

/**
 * Logs and answers failed requests the same way in every scope: 4xx with the reason, 5xx without details; the log
 * lines are rate-limited per source and reason (a flood of bad requests cannot flush the log).
 */
export function applyCommonHandlers(params: { app: FastifyInstance; rejections: RejectionLog }): void {
  const { app, rejections } = params;
  app.setNotFoundHandler(async (request, reply) => {
    await reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url}` });
  });
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    // The path only: a query may carry a signature (MMS media links).
    const url = request.url.split('?')[0];
    rejections.reject({
      source: request.ip,
      reason: reasonOf({ status }),
      message: 'request rejected',
      level: status >= 500 ? 'error' : 'warn',
      logger: request.log,
      fields: { err: error, url, status },
    });
    await reply.code(status).send({ error: error.code ?? 'error', message: status >= 500 ? 'internal error' : error.message });
  });
}

/**
 * Webhook routes per platform, replaceable while the server listens. Fastify cannot add routes after
 * `listen`, so each adapter instance gets its own small (never listening) fastify scope, and the server's
 * request handler forwards a request to the scope of the platform whose CURRENT instance has a matching
 * route. A reload that builds a new adapter mounts a new scope under the same platform name.
 */
export class WebhookMounts {
  private readonly scopes = new Map<string, FastifyInstance>();
  private readonly pending = new Set<Promise<boolean>>();
  private readonly settings: ScopeSettings;

  constructor(params: ScopeSettings) {
    this.settings = params;
  }

  /**
   * Builds a scope with the routes `register` adds and, once it is ready, makes it the platform's current one
   * (the previous scope is closed). `register` runs synchronously, so a misconfigured adapter throws here.
   * Resolves to false when the adapter added no routes (nothing is mounted then).
   */
  mount(params: { name: string; register: RouteRegistrar }): Promise<boolean> {
    // Typed as fastify's logger, so the scope is a plain FastifyInstance (pino's own type carries extra fields).
    const scopeLogger: FastifyBaseLogger = this.settings.logger.child({ component: 'http', platform: params.name });
    const scope = Fastify({
      loggerInstance: scopeLogger,
      bodyLimit: this.settings.bodyLimitBytes,
      logController: new LogController({ disableRequestLogging: true }),
    });
    applyCommonHandlers({ app: scope, rejections: this.settings.rejections });
    let routes = 0;
    scope.addHook('onRoute', () => {
      routes += 1;
    });
    params.register({ app: scope, rejections: this.settings.rejections });
    const ready = (async (): Promise<boolean> => {
      await scope.ready();
      if (routes === 0) {
        await scope.close();
        return false;
      }
      const previous = this.scopes.get(params.name);
      this.scopes.set(params.name, scope);
      if (previous) await previous.close();
      return true;
    })();
    // A failed mount stays pending, so `settled` (and with it the first `listen`) reports it.
    this.pending.add(ready);
    void ready.then(() => this.pending.delete(ready), () => undefined);
    return ready;
  }

  /** Removes the platform's routes (its requests then get 404). */
  async unmount(params: { name: string }): Promise<void> {
    const scope = this.scopes.get(params.name);
    this.scopes.delete(params.name);
    await scope?.close();
  }

  /** Whether the platform currently has webhook routes. */
  has(params: { name: string }): boolean {
    return this.scopes.has(params.name);
  }

  /** Resolves once every mount started so far is ready; rejects with the first that failed. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Hands the request to the platform scope with a matching route; false when none has one. */
  dispatch(params: { req: IncomingMessage; res: ServerResponse }): boolean {
    const { req, res } = params;
    const method = req.method ?? 'GET';
    const url = (req.url ?? '/').split('?')[0] ?? '/';
    for (const scope of this.scopes.values()) {
      if (!scope.findRoute({ method, url })) continue;
      scope.routing(req, res);
      return true;
    }
    return false;
  }

  /** Closes every scope. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    const scopes = [...this.scopes.values()];
    this.scopes.clear();
    await Promise.allSettled(scopes.map((scope) => scope.close()));
  }
}
