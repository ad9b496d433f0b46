import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { RejectionRecorder, RejectionReason } from '../../src/core/rejection.js';
import type { MessageEvent } from '../../src/core/adapter.js';
import type { Sender } from '../../src/core/adapter.js';
import type { OutboxMessage } from './outbox.js';
import type { ApiKeys } from './auth.js';
import type { PendingReply, ReplyEnd } from './reply.js';
import { readChatRequest, sessionNameProblem, type ChatRequest, type RequestProblem } from './request.js';
import { chunkBody, completionBody, errorBody, modelBody, sseData, type ApiErrorBody, type CompletionIds } from './wire.js';

/** While a stream waits for text, a comment line this often keeps proxies and clients from timing it out. */
const KEEP_ALIVE_MS = 15_000;

/** The header that names a session (wins over the `user` field). */
export const SESSION_HEADER = 'x-hermes-session';

/** The header a client may send so that a retried request is the same message (answered once). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Longest Idempotency-Key taken. */
const MAX_IDEMPOTENCY_KEY = 200;

/** What a request's message became: its answer to follow, or the error to answer at once. */
export type TakeResult = { readonly kind: 'reply'; readonly reply: PendingReply } | { readonly kind: 'refused'; readonly end: Extract<ReplyEnd, { kind: 'failed' }> };

/** What the routes ask of the adapter (ApiAdapter implements it). */
export interface ApiRouteHost {
  readonly name: string;
  /** The model id clients address (GET /v1/models lists it). */
  readonly modelId: string;
  /** When the model "was created" for GET /v1/models (the adapter's start). */
  readonly modelCreated: number;
  /** The sender a key stands for, by its position in `keys`. */
  senderOf(params: { index: number }): Sender;
  /** The messages waiting for a chat in the outbox, taken. */
  collect(params: { chatId: string }): OutboxMessage[];
  /** The journal message id of a request (stable for one Idempotency-Key). */
  messageIdFor(params: { senderId: string; idempotencyKey: string | undefined }): string;
  now(): number;
  /** Hands one request's message to the gateway; resolves once it is journaled (or refused). */
  take(params: { event: MessageEvent; idempotent: boolean }): Promise<TakeResult>;
}

/** What the routes need besides the adapter. */
interface RouteParams {
  readonly app: FastifyInstance;
  readonly rejections: RejectionRecorder;
  readonly logger: Logger;
  readonly adapter: ApiRouteHost;
  readonly keys: ApiKeys;
  readonly bodyLimitBytes: number;
  readonly maxInputChars: number;
  /** The routes' scope is closing (shutdown, or a reload that replaced the adapter). */
  readonly onClose: () => void;
}

/** One header's value as a string (undefined when absent; the first of repeated ones). */
function header(params: { request: FastifyRequest; name: string }): string | undefined {
  const value = params.request.headers[params.name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Registers the API's routes in their own scope: every route wants `Authorization: Bearer <key>` (401 otherwise), every
 * refusal has an OpenAI-style body `{error: {message, type, code, param}}` and one (rate-limited) log line, and no
 * request is answered 500: a body that is too large is 413, one that is not JSON or not a chat completion request is
 * 400 naming the field.
 */
export function registerApiRoutes(params: RouteParams): void {
  void params.app.register(async (scope) => {
    // The body is read here (so bad JSON is a 400 of ours, with the field-naming body, not fastify's).
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: params.bodyLimitBytes }, (_request, body, done) => done(null, body));
    scope.addHook('onClose', async () => params.onClose());
    scope.setErrorHandler((error: FastifyError, request, reply) => answerError({ route: params, error, request, reply }));
    addModelRoutes({ scope, route: params });
    addOutboxRoute({ scope, route: params });
    scope.post('/v1/chat/completions', { bodyLimit: params.bodyLimitBytes }, (request, reply) => chatCompletion({ route: params, request, reply }));
  });
}

/** One refusal: its status, its OpenAI-style body and the log line (with the reason the rejection recorder counts). */
interface Refusal {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly status: number;
  readonly body: ApiErrorBody;
  readonly reason: RejectionReason;
  readonly log: string;
}

/** Answers a refused request: one (rate-limited) log line through the rejection recorder, then the error body. */
async function refuse(params: Refusal & { route: RouteParams }): Promise<FastifyReply> {
  const { route, request } = params;
  route.rejections.reject({ source: request.ip, reason: params.reason, logger: route.logger, message: params.log, fields: { path: request.url.split('?')[0], status: params.status, param: params.body.error.param, detail: params.body.error.message } });
  return params.reply.code(params.status).send(params.body);
}

/** The sender index of the request's key, or undefined after answering 401. */
async function authorized(params: { route: RouteParams; request: FastifyRequest; reply: FastifyReply }): Promise<number | undefined> {
  const { route, request, reply } = params;
  const checked = route.keys.check({ header: header({ request, name: 'authorization' }) });
  if (checked.kind === 'ok') return checked.index;
  const missing = checked.kind === 'missing';
  void reply.header('www-authenticate', 'Bearer');
  await refuse({
    route,
    request,
    reply,
    status: 401,
    reason: 'bad_token',
    log: missing ? 'API request without an API key rejected' : 'API request with a wrong API key rejected',
    body: errorBody({
      message: missing ? 'No API key given: send it as "Authorization: Bearer <key>" (a key from platforms.api.keys).' : 'Incorrect API key provided.',
      type: 'invalid_request_error',
      code: missing ? 'missing_api_key' : 'invalid_api_key',
    }),
  });
  return undefined;
}

/** The session a request names (header, else `user`), or a problem naming the field. */
function sessionOf(params: { request: FastifyRequest; user: string | undefined }): { name: string | undefined } | { param: string; message: string } {
  const named = header({ request: params.request, name: SESSION_HEADER });
  if (named === undefined) return { name: params.user };
  const problem = sessionNameProblem({ value: named });
  return problem === undefined ? { name: named } : { param: 'X-Hermes-Session', message: `the X-Hermes-Session header ${problem}` };
}

/** The chat a sender's session is: the sender's own id, or `<sender>/<session>` for a named session. */
function chatIdOf(params: { senderId: string; session: string | undefined }): string {
  return params.session === undefined ? params.senderId : `${params.senderId}/${params.session}`;
}

/** The scope's error handler: a 4xx fastify raised (413, a bad body) is refused with our body; anything else is logged and answered 503. */
async function answerError(params: { route: RouteParams; error: FastifyError; request: FastifyRequest; reply: FastifyReply }): Promise<FastifyReply> {
  const { route, error, request, reply } = params;
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status >= 500) {
    route.logger.error({ err: error, path: request.url.split('?')[0] }, 'API request failed');
    return reply.code(503).send(errorBody({ message: 'the request could not be handled; try again', type: 'server_error', code: 'internal' }));
  }
  const oversized = status === 413;
  return refuse({
    route,
    request,
    reply,
    status,
    reason: oversized ? 'oversized' : 'malformed',
    log: oversized ? 'API request body too large rejected' : 'API request rejected',
    body: errorBody({
      message: oversized ? `the request body is larger than ${route.bodyLimitBytes} bytes (platforms.api.body_limit_bytes)` : error.message,
      type: 'invalid_request_error',
      code: oversized ? 'request_too_large' : (error.code ?? 'invalid_request'),
    }),
  });
}

/** Adds GET /v1/models and GET /v1/models/:model (the one model this gateway serves). */
function addModelRoutes(params: { scope: FastifyInstance; route: RouteParams }): void {
  const { scope, route } = params;
  const { adapter } = route;
  scope.get('/v1/models', async (request, reply) => {
    if ((await authorized({ route, request, reply })) === undefined) return reply;
    return reply.code(200).send({ object: 'list', data: [modelBody({ model: adapter.modelId, created: adapter.modelCreated })] });
  });

  scope.get<{ Params: { model: string } }>('/v1/models/:model', async (request, reply) => {
    if ((await authorized({ route, request, reply })) === undefined) return reply;
    if (request.params.model !== adapter.modelId) {
      return reply.code(404).send(errorBody({ message: `The model '${request.params.model.slice(0, 100)}' does not exist; this gateway serves '${adapter.modelId}'.`, type: 'invalid_request_error', code: 'model_not_found', param: 'model' }));
    }
    return reply.code(200).send(modelBody({ model: adapter.modelId, created: adapter.modelCreated }));
  });
}

/** Adds GET /v1/hermes/outbox: the messages waiting for the caller's chat (what the agent sent on its own), taken. */
function addOutboxRoute(params: { scope: FastifyInstance; route: RouteParams }): void {
  const { scope, route } = params;
  const { adapter } = route;
  scope.get<{ Querystring: { user?: string } }>('/v1/hermes/outbox', async (request, reply) => {
    const index = await authorized({ route, request, reply });
    if (index === undefined) return reply;
    const user = typeof request.query.user === 'string' ? request.query.user : undefined;
    const session = sessionOf({ request, user });
    if ('param' in session) return refuse({ route, request, reply, status: 400, reason: 'malformed', log: 'API request rejected', body: errorBody({ message: session.message, type: 'invalid_request_error', code: 'invalid_value', param: session.param }) });
    const chatId = chatIdOf({ senderId: adapter.senderOf({ index }).id, session: session.name });
    const messages = adapter.collect({ chatId });
    return reply.code(200).send({ object: 'list', data: messages.map((m) => ({ id: m.id, object: 'hermes.message', created: m.created, role: 'assistant', content: m.text })) });
  });
}

/** A chat completion request as read: its body, the session it names and its Idempotency-Key. */
interface CompletionRequest {
  readonly read: ChatRequest;
  readonly session: string | undefined;
  readonly idempotencyKey: string | undefined;
}

/** Reads a chat completion request's body and headers, or the problem (naming the field) to answer 400 with. */
function readCompletionRequest(params: { route: RouteParams; request: FastifyRequest }): CompletionRequest | RequestProblem {
  const { request } = params;
  let body: unknown;
  try {
    body = JSON.parse(typeof request.body === 'string' ? request.body : '');
  } catch {
    return { param: null, message: 'the request body is not valid JSON' };
  }
  const read = readChatRequest({ body, maxInputChars: params.route.maxInputChars });
  if ('param' in read) return { param: read.param, message: read.message };
  const session = sessionOf({ request, user: read.user });
  if ('param' in session) return { param: session.param, message: session.message };
  const idempotencyKey = header({ request, name: IDEMPOTENCY_HEADER });
  if (idempotencyKey !== undefined && (idempotencyKey === '' || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)) return { param: 'Idempotency-Key', message: `the Idempotency-Key header must be 1-${MAX_IDEMPOTENCY_KEY} characters` };
  return { read, session: session.name, idempotencyKey };
}

/**
 * POST /v1/chat/completions: the request's last message goes to the gateway as a message of the key's sender in the
 * named session; the answer is one completion body, or server-sent events with `stream: true`.
 */
async function chatCompletion(params: { route: RouteParams; request: FastifyRequest; reply: FastifyReply }): Promise<FastifyReply> {
  const { route, request, reply } = params;
  const { adapter } = route;
  const index = await authorized({ route, request, reply });
  if (index === undefined) return reply;
  const asked = readCompletionRequest({ route, request });
  if ('param' in asked) {
    return refuse({ route, request, reply, status: 400, reason: 'malformed', log: 'API chat completion request rejected', body: errorBody({ message: asked.message, type: 'invalid_request_error', code: 'invalid_value', param: asked.param }) });
  }
  const { read, idempotencyKey } = asked;
  const sender = adapter.senderOf({ index });
  const event: MessageEvent = {
    platform: adapter.name,
    messageId: adapter.messageIdFor({ senderId: sender.id, idempotencyKey }),
    chat: { id: chatIdOf({ senderId: sender.id, session: asked.session }), kind: 'dm' },
    sender,
    text: read.text,
    media: [],
    mentioned: true,
    receivedAt: adapter.now(),
  };
  const taken = await adapter.take({ event, idempotent: idempotencyKey !== undefined });
  if (taken.kind === 'refused') return answerFailed({ reply, end: taken.end });
  const ids: CompletionIds = { id: `chatcmpl-${event.messageId}`, created: taken.reply.created, model: adapter.modelId };
  if (!read.stream) {
    const end = await taken.reply.done;
    if (end.kind === 'failed') return answerFailed({ reply, end });
    return reply.code(200).send(completionBody({ ids, content: end.text }));
  }
  await streamAnswer({ request, reply, pending: taken.reply, ids, logger: route.logger });
  return reply;
}

/** Answers a request with the error its answer ended in. */
function answerFailed(params: { reply: FastifyReply; end: Extract<ReplyEnd, { kind: 'failed' }> }): FastifyReply {
  const { reply, end } = params;
  if (end.retryAfterSeconds !== undefined) void reply.header('retry-after', String(end.retryAfterSeconds));
  return reply.code(end.status).send(end.body);
}

/**
 * Streams an answer as server-sent events: the role, then each delta as it comes, then the finish reason and
 * `[DONE]` (an error ending it is an `error` event, which OpenAI clients raise). A client that goes away stops only the
 * writing: the turn goes on and is stored.
 */
async function streamAnswer(params: { request: FastifyRequest; reply: FastifyReply; pending: PendingReply; ids: CompletionIds; logger: Logger }): Promise<void> {
  const { reply, pending, ids, logger } = params;
  reply.hijack();
  const res = reply.raw;
  let closed = false;
  const write = (text: string): void => {
    if (closed || res.writableEnded || res.destroyed) return;
    res.write(text);
  };
  res.on('error', (error) => logger.debug({ err: error }, 'an API stream could not be written'));
  res.on('close', () => {
    if (!res.writableEnded) {
      closed = true;
      pending.detach();
      if (!pending.isEnded) logger.info({ messageId: pending.messageId }, 'API client went away mid-stream; the turn goes on and is stored');
    }
  });
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  write(sseData({ data: chunkBody({ ids, delta: { role: 'assistant', content: '' }, finishReason: null }) }));
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  pending.attach({ listener: (delta) => write(sseData({ data: chunkBody({ ids, delta: { content: delta }, finishReason: null }) })) });
  const end = await pending.done;
  clearInterval(keepAlive);
  if (end.kind === 'done') {
    write(sseData({ data: chunkBody({ ids, delta: {}, finishReason: 'stop' }) }));
    write(sseData({ data: '[DONE]' }));
  } else {
    write(sseData({ data: end.body }));
  }
  if (!closed && !res.writableEnded) res.end();
}
