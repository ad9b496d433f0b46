import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { closeServer, listenLoopback, readBody } from '../http-kit.js';

/** A picture the bot's MMS linked to, as Twilio fetched it when the message was created. */
export interface FetchedMedia {
  readonly url: string;
  readonly status: number;
  readonly bytes: Buffer;
  readonly contentType: string;
}

/** A message the bot sent through POST .../Messages.json. */
export interface FakeSentMessage {
  readonly sid: string;
  readonly to: string;
  readonly from: string | undefined;
  readonly messagingServiceSid: string | undefined;
  readonly body: string;
  readonly mediaUrls: readonly string[];
  readonly statusCallback: string | undefined;
  readonly media: readonly FetchedMedia[];
  readonly at: number;
}

/** One request the fake answered. */
export interface FakeCall {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly at: number;
}

/** Twilio's JSON error body. */
function twilioError(params: { status: number; code: number; message: string }): Record<string, unknown> {
  return { code: params.code, message: params.message, more_info: `https://www.twilio.com/docs/errors/${params.code}`, status: params.status };
}

/** A Twilio-style SID: two letters and 32 hex digits. */
export function fakeSid(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

/**
 * Twilio's REST API on 127.0.0.1, for the real twilio SDK (through a RequestClient that rewrites the host):
 * GET Accounts/{sid}.json, POST Accounts/{sid}/Messages.json (form body, recorded; media URLs fetched at
 * once, as Twilio does), MMS media downloads; every route behind HTTP basic auth (401 with Twilio's error body
 * otherwise). `rateLimitNext` answers the next message creations with 429 / error 20429.
 */
export class FakeTwilio {
  readonly accountSid: string;
  private readonly authToken: string;
  private readonly server: http.Server;
  private readonly listeners = new Set<() => void>();
  private readonly mediaStore = new Map<string, { bytes: Buffer; contentType: string }>();
  private rateLimited = 0;
  private retryAfterSeconds: number | undefined;
  private port = 0;
  /** Messages the bot sent, oldest first. */
  readonly sent: FakeSentMessage[] = [];
  /** Every request answered, oldest first. */
  readonly calls: FakeCall[] = [];
  /** How the fake fetches the media URLs of a new message (the test maps public URLs to the gateway); none: not fetched. */
  mediaFetcher: ((params: { url: string }) => Promise<FetchedMedia>) | undefined;

  constructor(params: { accountSid: string; authToken: string }) {
    this.accountSid = params.accountSid;
    this.authToken = params.authToken;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.answer(res, req, 500, twilioError({ status: 500, code: 20500, message: `FakeTwilio failed: ${String(error)}` })));
    });
  }

  /** The API base for `platforms.sms.api_base`: http://127.0.0.1:PORT */
  get apiBase(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts listening on an ephemeral loopback port. */
  async start(): Promise<void> {
    this.port = await listenLoopback({ server: this.server });
  }

  /** Stops the server. */
  async close(): Promise<void> {
    await closeServer({ server: this.server });
  }

  /** Messages sent to one number, oldest first. */
  messagesTo(params: { to: string }): FakeSentMessage[] {
    return this.sent.filter((m) => m.to === params.to);
  }

  /** The next `count` message creations get 429 (Twilio error 20429), with `Retry-After` when given; nothing is sent. */
  rateLimitNext(params: { count?: number; retryAfterSeconds?: number } = {}): void {
    this.rateLimited += params.count ?? 1;
    this.retryAfterSeconds = params.retryAfterSeconds;
  }

  /** Stores media for an incoming MMS; its URL serves the bytes behind basic auth, like Twilio's MediaUrl. */
  addMedia(params: { bytes: Buffer; contentType: string }): { url: string; contentType: string } {
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages/${fakeSid('MM')}/Media/${fakeSid('ME')}`;
    this.mediaStore.set(path, { bytes: params.bytes, contentType: params.contentType });
    return { url: `${this.apiBase}${path}`, contentType: params.contentType };
  }

  /** Resolves once `predicate` holds (checked after every request), or rejects after `timeoutMs`. */
  async waitFor(params: { predicate: () => boolean; timeoutMs?: number }): Promise<void> {
    if (params.predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!params.predicate()) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`FakeTwilio.waitFor: not met within ${params.timeoutMs ?? 5000} ms; calls: ${this.calls.map((c) => `${c.method} ${c.path} ${c.status}`).join(', ')}`));
      }, params.timeoutMs ?? 5000);
      this.listeners.add(check);
    });
  }

  private authorized(req: http.IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (!this.authorized(req)) return this.answer(res, req, 401, twilioError({ status: 401, code: 20003, message: 'Authenticate' }));
    const media = this.mediaStore.get(path);
    if (media && req.method === 'GET') {
      this.record(req, 200);
      res.writeHead(200, { 'content-type': media.contentType, 'content-length': media.bytes.length }).end(media.bytes);
      return;
    }
    const account = `/2010-04-01/Accounts/${this.accountSid}`;
    if (req.method === 'GET' && path === `${account}.json`) {
      return this.answer(res, req, 200, { sid: this.accountSid, friendly_name: 'Fake account', status: 'active', type: 'Full', date_created: 'Mon, 01 Jan 2024 00:00:00 +0000' });
    }
    if (req.method === 'POST' && path === `${account}/Messages.json`) {
      const body = await readBody({ req, maxBytes: 256 * 1024 });
      return this.createMessage(req, res, new URLSearchParams(body?.toString('utf8') ?? ''));
    }
    return this.answer(res, req, 404, twilioError({ status: 404, code: 20404, message: `The requested resource ${path} was not found` }));
  }

  private async createMessage(req: http.IncomingMessage, res: http.ServerResponse, form: URLSearchParams): Promise<void> {
    if (this.rateLimited > 0) {
      this.rateLimited -= 1;
      return this.answer(res, req, 429, twilioError({ status: 429, code: 20429, message: 'Too Many Requests' }), this.retryAfterSeconds === undefined ? {} : { 'retry-after': String(this.retryAfterSeconds) });
    }
    const to = form.get('To');
    const from = form.get('From') ?? undefined;
    const messagingServiceSid = form.get('MessagingServiceSid') ?? undefined;
    const body = form.get('Body') ?? '';
    const mediaUrls = form.getAll('MediaUrl');
    if (to === null || to === '') return this.answer(res, req, 400, twilioError({ status: 400, code: 21604, message: "A 'To' phone number is required." }));
    if (from === undefined && messagingServiceSid === undefined) return this.answer(res, req, 400, twilioError({ status: 400, code: 21603, message: "A 'From' phone number is required." }));
    if (body === '' && mediaUrls.length === 0) return this.answer(res, req, 400, twilioError({ status: 400, code: 21602, message: 'Message body is required.' }));
    if (body.length > 1600) return this.answer(res, req, 400, twilioError({ status: 400, code: 21617, message: 'The concatenated message body exceeds the 1600 character limit.' }));
    const fetcher = this.mediaFetcher;
    const media = fetcher ? await Promise.all(mediaUrls.map((url) => fetcher({ url }))) : [];
    const sid = fakeSid(mediaUrls.length > 0 ? 'MM' : 'SM');
    const statusCallback = form.get('StatusCallback') ?? undefined;
    this.sent.push({ sid, to, from, messagingServiceSid, body, mediaUrls, statusCallback, media, at: Date.now() });
    this.answer(res, req, 201, {
      sid, account_sid: this.accountSid, to, from: from ?? null, messaging_service_sid: messagingServiceSid ?? null, body, status: 'queued',
      num_media: String(mediaUrls.length), num_segments: String(Math.max(1, Math.ceil(body.length / 153))), direction: 'outbound-api',
      api_version: '2010-04-01', date_created: new Date().toUTCString(), uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}.json`,
    });
  }

  private answer(res: http.ServerResponse, req: http.IncomingMessage, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
    this.record(req, status);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }

  private record(req: http.IncomingMessage, status: number): void {
    this.calls.push({ method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname, status, at: Date.now() });
    for (const listener of [...this.listeners]) listener();
  }
}
