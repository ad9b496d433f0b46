import http from 'node:http';
import { closeServer, listenLoopback, readBody } from '../http-kit.js';
import type { CallOutcome } from './dispatch.js';
import { ApiError } from './errors.js';
import { parseRequest, type ParsedRequest } from './params.js';

/** Telegram's cap on a Bot API request body (50 MB uploads) plus room for the other fields. */
const MAX_BODY_BYTES = 52 * 1024 * 1024;

/** What the HTTP layer routes to. */
export interface Routes {
  /** /bot<token>/<method> */
  call(params: { token: string; method: string; request: ParsedRequest; signal: AbortSignal }): Promise<CallOutcome>;
  /** GET /file/bot<token>/<file_path> */
  download(params: { token: string; filePath: string }): { status: number; body: Buffer; contentType: string };
}

/** The Bot API's HTTP surface on 127.0.0.1: routing, body parsing, JSON answers, shutdown that ends open long polls. */
export class TelegramHttpServer {
  private readonly routes: Routes;
  private readonly server: http.Server;
  private port = 0;

  constructor(params: { routes: Routes }) {
    this.routes = params.routes;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        sendJson(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: FakeTelegram failed: ${message}` });
      });
    });
  }

  /** Listens on an ephemeral loopback port and returns it. */
  async start(): Promise<number> {
    this.port = await listenLoopback({ server: this.server });
    return this.port;
  }

  /** Stops listening and destroys every open connection, hanging long polls included. */
  async close(): Promise<void> {
    await closeServer({ server: this.server });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = safeDecode(url.pathname);
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) {
      const answer = this.routes.download({ token: file[1] ?? '', filePath: file[2] ?? '' });
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length });
      res.end(req.method === 'HEAD' ? undefined : answer.body);
      return;
    }
    const api = /^\/bot([^/]+)\/([A-Za-z0-9_]+)\/?$/.exec(path);
    if (!api) {
      sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    const body = await readBody({ req, maxBytes: MAX_BODY_BYTES });
    if (body === undefined) {
      sendJson(res, 413, { ok: false, error_code: 413, description: 'Request Entity Too Large' });
      req.destroy();
      return;
    }
    let request: ParsedRequest;
    try {
      request = parseRequest({ query: url.searchParams, contentType: req.headers['content-type'] ?? '', body });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      sendJson(res, error.status, error.body());
      return;
    }
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    const outcome = await this.routes.call({ token: api[1] ?? '', method: api[2] ?? '', request, signal: aborter.signal });
    if (outcome.kind === 'drop') res.socket?.destroy();
    else if (!res.destroyed) sendJson(res, outcome.status, outcome.body);
  }
}


function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
