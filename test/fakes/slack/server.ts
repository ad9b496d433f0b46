import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiAnswer } from './dispatch.js';
import { closeServer, listenLoopback, readBody } from '../http-kit.js';
import { bearer, MAX_BODY_BYTES, parseParams, uploadBytes } from './request-body.js';
import type { Params } from './types.js';

/** What the HTTP layer routes to. */
export interface Routes {
  /** POST/GET /api/<method>; undefined drops the connection (the client is gone). */
  call(params: { method: string; params: Params; token: string | undefined; signal: AbortSignal }): Promise<ApiAnswer | undefined>;
  /** POST /upload/v1/<fileId>: true when stored. */
  upload(params: { fileId: string; bytes: Buffer }): boolean;
  /** GET /files/<id>/<name> with the bearer token. */
  download(params: { fileId: string; token: string | undefined }): { status: number; body: Buffer; contentType: string };
  /** WebSocket upgrade on /link. */
  upgrade(params: { req: http.IncomingMessage; socket: Duplex; head: Buffer }): void;
}

/** Slack's HTTP surface on 127.0.0.1: Web API, upload URLs, private file downloads, Socket Mode upgrades. */
export class SlackHttpServer {
  private readonly routes: Routes;
  private readonly server: http.Server;

  constructor(params: { routes: Routes }) {
    this.routes = params.routes;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        send(res, { status: 500, headers: {}, body: { ok: false, error: 'fatal_error', detail: `FakeSlack failed: ${message}` } });
      });
    });
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path.startsWith('/link')) this.routes.upgrade({ req, socket, head });
      else socket.destroy();
    });
  }

  /** Listens on an ephemeral loopback port and returns it. */
  async start(): Promise<number> {
    return listenLoopback({ server: this.server });
  }

  /** Stops listening and destroys every open connection. */
  async close(): Promise<void> {
    await closeServer({ server: this.server });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const token = bearer(req.headers.authorization);
    const file = /^\/files\/([A-Z0-9]+)\/[^/]+$/.exec(url.pathname);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) {
      const answer = this.routes.download({ fileId: file[1] ?? '', token });
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length });
      res.end(req.method === 'HEAD' ? undefined : answer.body);
      return;
    }
    const body = await readBody({ req, maxBytes: MAX_BODY_BYTES });
    if (body === undefined) {
      res.writeHead(413).end('Request Entity Too Large');
      req.destroy();
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    const upload = /^\/upload\/v1\/([A-Z0-9]+)$/.exec(url.pathname);
    if (upload && req.method === 'POST') {
      const bytes = uploadBytes({ contentType, body });
      const stored = bytes !== undefined && bytes.length > 0 && this.routes.upload({ fileId: upload[1] ?? '', bytes });
      res.writeHead(stored ? 200 : bytes === undefined ? 400 : 404, { 'content-type': 'text/plain' });
      res.end(stored ? `OK - ${bytes.length}` : 'upload failed: unknown upload URL or empty body');
      return;
    }
    const api = /^\/api\/([A-Za-z0-9_.]+)$/.exec(url.pathname);
    if (!api || (req.method !== 'POST' && req.method !== 'GET')) {
      send(res, { status: 404, headers: {}, body: { ok: false, error: 'unknown_method' } });
      return;
    }
    const params = parseParams({ query: url.searchParams, contentType, body });
    if (params === undefined) {
      send(res, { status: 200, headers: {}, body: { ok: false, error: 'invalid_form_data' } });
      return;
    }
    const bodyToken = typeof params['token'] === 'string' ? params['token'] : undefined;
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    const answer = await this.routes.call({ method: api[1] ?? '', params, token: token ?? bodyToken, signal: aborter.signal });
    if (answer === undefined) res.socket?.destroy();
    else send(res, answer);
  }
}

function send(res: http.ServerResponse, answer: ApiAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...answer.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
