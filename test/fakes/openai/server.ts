import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { completionBody, errorBody, resolveToolCalls, streamDeltas, usageBody, type ScriptedReply } from './chunks.js';

export type { ScriptedReply, ScriptedToolCall } from './chunks.js';

/** The JSON body of a captured request (chat.completions params). */
export interface CapturedBody {
  /** Requested model. */
  model?: string;
  /** True for streaming requests. */
  stream?: boolean;
  /** The conversation sent. */
  messages?: Record<string, unknown>[];
  /** The tools offered to the model. */
  tools?: Record<string, unknown>[];
  /** Any other parameter (temperature, max_tokens, ...). */
  [key: string]: unknown;
}

/** One request the fake received. */
export interface CapturedRequest {
  /** HTTP method. */
  method: string;
  /** Request path, e.g. /v1/chat/completions. */
  path: string;
  /** Request headers (lower-case names). */
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body. */
  body: CapturedBody;
  /** Date.now() when the request arrived. */
  time: number;
  /** True once the client went away before the answer was complete (an aborted request). */
  cut?: boolean;
  /** Date.now() when the exchange ended: the answer complete, or the client gone (see `cut`). */
  ended?: number;
}

/** Pause between the last chunk and the reset of a `breakAfterChunks` reply. */
const BREAK_DELAY_MS = 30;

/** Decides the reply to a request when the queue is empty. */
export type Responder = (req: CapturedRequest) => ScriptedReply;

/**
 * An OpenAI-compatible chat.completions server on 127.0.0.1 for tests with the real `openai` SDK.
 * Replies come from `enqueue` (first) or a responder; without either it answers 500.
 */
export class FakeOpenAI {
  /** Every request received, in order. */
  readonly requests: CapturedRequest[] = [];
  /** The model ids GET /v1/models lists (tests may change it). */
  models: string[] = ['fake-model'];
  /** Extra fields of each listed model in GET /v1/models, by id (e.g. `{ context_length: 4000 }`, vLLM's `max_model_len`). */
  modelMetadata: Record<string, Record<string, unknown>> = {};
  /** GET /v1/models requests (kept apart from `requests`, the chat completions). */
  readonly modelListings: CapturedRequest[] = [];
  /**
   * Answer requests that carry `stream_options` with a 400, as a strict OpenAI-compatible server does for a
   * parameter it does not know (the request is recorded; no scripted reply is used up).
   */
  refuseStreamOptions = false;
  /** Send the usage chunk when a stream asks for it (`stream_options.include_usage`); false: accept but never report. */
  reportUsage = true;
  /** The serialized messages of the last streamed request (for the simulated prefix cache). */
  private lastPrompt: string | undefined;
  private readonly queue: ScriptedReply[] = [];
  private responder: Responder | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((req, res) => {
    this.handle(req, res).catch(() => res.destroy());
  });
  private port = 0;
  private seq = 0;
  private waiters: { count: number; resolve: () => void }[] = [];

  /** Starts listening on an ephemeral loopback port. */
  async start(): Promise<void> {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Base URL for `new OpenAI({ baseURL })`, e.g. http://127.0.0.1:PORT/v1. */
  get baseURL(): string {
    if (this.port === 0) throw new Error('FakeOpenAI: call start() before reading baseURL');
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Queues replies, answered in order before the responder is asked. */
  enqueue(...replies: ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  /** Sets (or clears) the function that answers when the queue is empty. */
  setResponder(responder: Responder | undefined): void {
    this.responder = responder;
  }

  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Destroys open connections (also hanging streams) and stops listening. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = await readBody(req);
    let body: CapturedBody;
    try {
      body = text === '' ? {} : (JSON.parse(text) as CapturedBody);
    } catch {
      sendJson(res, 400, errorBody({ status: 400, message: 'FakeOpenAI: request body is not JSON' }));
      return;
    }
    const captured: CapturedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      time: Date.now(),
    };
    if (captured.method === 'GET' && captured.path === '/v1/models') {
      // The gateway's model watch and `hermes doctor` list models; that is not a chat request.
      this.modelListings.push(captured);
      sendJson(res, 200, { object: 'list', data: this.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake', ...this.modelMetadata[id] })) });
      return;
    }
    this.requests.push(captured);
    res.on('close', () => {
      captured.ended = Date.now();
      if (!res.writableFinished) captured.cut = true;
    });
    this.notifyWaiters();
    if (captured.method !== 'POST' || !captured.path.startsWith('/v1/chat/completions')) {
      sendJson(res, 404, errorBody({ status: 404, message: `FakeOpenAI: no route ${captured.method} ${captured.path}` }));
      return;
    }
    if (this.refuseStreamOptions && body['stream_options'] !== undefined) {
      const message = 'Unrecognized request argument supplied: stream_options';
      sendJson(res, 400, errorBody({ status: 400, message }));
      return;
    }
    let reply: ScriptedReply | undefined;
    try {
      reply = this.queue.shift() ?? this.responder?.(captured);
    } catch (error) {
      sendJson(res, 500, errorBody({ status: 500, message: `FakeOpenAI: responder threw: ${String(error)}` }));
      return;
    }
    if (!reply) {
      sendJson(res, 500, errorBody({ status: 500, message: 'FakeOpenAI: no scripted reply' }));
      return;
    }
    if (reply.status !== undefined && reply.status >= 400) {
      const headers: Record<string, string> = {};
      if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
      if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
      const err = errorBody({ status: reply.status, message: reply.errorMessage, code: reply.errorCode });
      sendJson(res, reply.status, err, headers);
      return;
    }
    const id = `chatcmpl-fake${++this.seq}`;
    const model = body.model ?? 'fake-model';
    const toolCalls = resolveToolCalls({ reply, callSeq: () => ++this.seq });
    if (body.stream !== true) {
      if (reply.hangAfterChunks !== undefined) return;
      sendJson(res, 200, completionBody({ id, model, reply, toolCalls }));
      return;
    }
    const prompt = JSON.stringify(body.messages ?? []);
    const usage = wantsUsage(body) && this.reportUsage ? usageBody({ reply, prompt, previousPrompt: this.lastPrompt, toolCalls }) : undefined;
    this.lastPrompt = prompt;
    await this.stream({ res, id, model, reply, deltas: streamDeltas({ reply, toolCalls }), usage });
  }

  private async stream(params: {
    res: http.ServerResponse;
    id: string;
    model: string;
    reply: ScriptedReply;
    deltas: { delta: Record<string, unknown>; finishReason: string | null }[];
    /** The usage chunk's `usage`, sent after the finish chunk with empty `choices` (as OpenAI does). */
    usage: Record<string, unknown> | undefined;
  }): Promise<void> {
    const { res, reply } = params;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': params.id });
    res.flushHeaders();
    const created = Math.floor(Date.now() / 1000);
    // With include_usage, OpenAI sends `usage: null` on every chunk but the last.
    const base = { id: params.id, object: 'chat.completion.chunk', created, model: params.model, ...(params.usage ? { usage: null } : {}) };
    // The opening role-only chunk does not count towards hangAfterChunks / breakAfterChunks.
    let sent = -1;
    for (const { delta, finishReason } of params.deltas) {
      if (reply.chunkDelayMs) await delay(reply.chunkDelayMs);
      if (res.destroyed) return;
      if (reply.hangAfterChunks !== undefined && sent >= reply.hangAfterChunks) return;
      if (reply.breakAfterChunks !== undefined && sent >= reply.breakAfterChunks) {
        // Give the client time to read what was sent; a reset discards data it has not read yet.
        await delay(BREAK_DELAY_MS);
        res.socket?.destroy();
        return;
      }
      const choice = { index: 0, delta, finish_reason: finishReason, logprobs: null };
      res.write(`data: ${JSON.stringify({ ...base, choices: [choice] })}\n\n`);
      sent += 1;
    }
    if (params.usage) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: params.usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  private notifyWaiters(): void {
    const ready = this.waiters.filter((w) => this.requests.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.requests.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }
}

function wantsUsage(body: CapturedBody): boolean {
  const options = body['stream_options'];
  return typeof options === 'object' && options !== null && (options as Record<string, unknown>)['include_usage'] === true;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
