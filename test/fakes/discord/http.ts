import http from 'node:http';
import { closeServer, listenLoopback, readBody } from '../http-kit.js';
import type { Duplex } from 'node:stream';
import { multipartBoundary, parseMultipart, type MultipartPart } from '../telegram/multipart.js';
import { HeldAnswers, type HeldAnswer } from '../held-answers.js';
import { DiscordApiError, findRoute, matchRoute, type RestResult, type Route } from './router.js';
import type { DiscordState } from './state.js';
import type { FailRule } from './types.js';

/** Upload cap per request (Discord's default is 10 MiB per file; this leaves room for several). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const API_PREFIX = '/api/v10';

/** Discord's REST surface on 127.0.0.1: auth, JSON/multipart bodies, injected failures, the call log and file downloads. */
export class DiscordHttpServer {
  private readonly server: http.Server;
  private readonly state: DiscordState;
  private readonly token: string;
  private readonly routes: Route[];
  private readonly failRules: FailRule[] = [];
  private readonly held = new HeldAnswers();

  constructor(params: {
    state: DiscordState; token: string; routes: Route[];
    onUpgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  }) {
    this.state = params.state;
    this.token = params.token;
    this.routes = params.routes;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        send(res, { status: 500, body: { message: `500: FakeDiscord failed: ${message}`, code: 0 } }, {});
      });
    });
    this.server.on('upgrade', params.onUpgrade);
  }

  /** Listens on an ephemeral loopback port and returns it. */
  async start(): Promise<number> {
    return listenLoopback({ server: this.server });
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    await closeServer({ server: this.server });
  }

  /** Queues a failure for the next request matching `rule.route`. */
  failNext(rule: FailRule): void {
    this.failRules.push(rule);
  }

  /** Makes the next request matching `route` ('POST /channels/:id/messages') take effect but hold its answer until released. */
  holdNext(params: { route: string }): HeldAnswer {
    return this.held.holdNext({ matches: (key) => {
      const [method = '', path = ''] = key.split(' ');
      return matchRoute({ pattern: params.route, method, path }) !== undefined;
    } });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const file = this.state.files.get(url.pathname);
    if (file && (method === 'GET' || method === 'HEAD')) {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length });
      res.end(method === 'HEAD' ? undefined : file.bytes);
      return;
    }
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      send(res, { status: 404, body: { message: '404: Not Found', code: 0 } }, {});
      return;
    }
    const path = url.pathname.slice(API_PREFIX.length);
    const raw = await readBody({ req, maxBytes: MAX_BODY_BYTES });
    if (raw === undefined) {
      send(res, { status: 413, body: { message: 'Request entity too large', code: 40005 } }, {});
      req.destroy();
      return;
    }
    let parsed: { body: unknown; files: MultipartPart[] };
    try {
      parsed = parseBody({ contentType: req.headers['content-type'] ?? '', raw });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      send(res, { status: 400, body: { message: `400: Bad Request (${message})`, code: 50109 } }, {});
      return;
    }
    this.state.calls.push({ method, path, body: parsed.body, at: this.state.clock.now() });
    // Interaction callbacks and follow-ups are authorized by the interaction token in the path, not the bot token.
    const byInteractionToken = path.startsWith('/interactions/') || path.startsWith('/webhooks/');
    if (!byInteractionToken && req.headers.authorization !== `Bot ${this.token}`) {
      send(res, { status: 401, body: { message: '401: Unauthorized', code: 0 } }, {});
      return;
    }
    const ruleIndex = this.failRules.findIndex((rule) => matchRoute({ pattern: rule.route, method, path }) !== undefined);
    if (ruleIndex >= 0) {
      const [rule] = this.failRules.splice(ruleIndex, 1);
      if (rule) {
        sendFailure(res, rule, this.state.clock.now());
        return;
      }
    }
    try {
      const { route, values } = findRoute({ routes: this.routes, method, path });
      const result = route.handle({ method, path, params: values, body: parsed.body, files: parsed.files });
      const hold = this.held.take({ key: `${method} ${path}` });
      if (hold) {
        const aborter = new AbortController();
        res.on('close', () => {
          if (!res.writableFinished) aborter.abort();
        });
        await hold.wait(aborter.signal);
        if (aborter.signal.aborted) return;
      }
      send(res, result, {});
    } catch (error) {
      if (!(error instanceof DiscordApiError)) throw error;
      send(res, { status: error.status, body: error.toJson() }, {});
    }
  }
}

/** Answers an injected failure; a 429 carries the body and headers @discordjs/rest reads to wait and retry. */
function sendFailure(res: http.ServerResponse, rule: FailRule, now: number): void {
  if (rule.status !== 429) {
    send(res, { status: rule.status, body: { message: `${rule.status}: Injected failure`, code: 0 } }, {});
    return;
  }
  const retryAfter = rule.retryAfter ?? 1;
  const headers: Record<string, string> = {
    'retry-after': String(retryAfter),
    'x-ratelimit-scope': rule.global ? 'global' : 'user',
  };
  if (rule.global) headers['x-ratelimit-global'] = 'true';
  else {
    Object.assign(headers, {
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': String(retryAfter),
      'x-ratelimit-reset': String((now / 1000 + retryAfter).toFixed(3)),
      'x-ratelimit-bucket': 'fake-bucket',
    });
  }
  const body = { message: 'You are being rate limited.', retry_after: retryAfter, global: rule.global ?? false };
  send(res, { status: 429, body }, headers);
}

function send(res: http.ServerResponse, result: RestResult, headers: Record<string, string>): void {
  if (result.body === undefined) {
    res.writeHead(result.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(result.body);
  res.writeHead(result.status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function parseBody(params: { contentType: string; raw: Buffer }): { body: unknown; files: MultipartPart[] } {
  if (params.raw.length === 0) return { body: undefined, files: [] };
  const boundary = multipartBoundary({ contentType: params.contentType });
  if (params.contentType.startsWith('multipart/form-data') && boundary) {
    const parts = parseMultipart({ body: params.raw, boundary });
    const payload = parts.find((part) => part.name === 'payload_json');
    return {
      body: payload ? (JSON.parse(payload.data.toString('utf8')) as unknown) : undefined,
      files: parts.filter((part) => part.fileName !== undefined),
    };
  }
  return { body: JSON.parse(params.raw.toString('utf8')) as unknown, files: [] };
}

