import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import type { AdapterCapabilities, AdapterStartParams, ChatRef, EditRequest, EmitOutcome, MessageEvent, OutboundMessage, PlatformAdapter, Sender } from '../../src/core/adapter.js';
import { AdapterFatalError, JournalRefusedError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/clock.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { ApiKeys } from './auth.js';
import { senderIdOfKey, type ApiConfig } from './config-schema.js';
import { Outbox, type OutboxMessage } from './outbox.js';
import { PendingReply, type ReplyEnd } from './reply.js';
import { registerApiRoutes, type ApiRouteHost, type TakeResult } from './routes.js';
import { errorBody } from './wire.js';

/**
 * Longest text one message may carry: no real limit, so the gateway never splits a reply (a reply arrives whole, as
 * one completion). Far above anything a model writes in one answer.
 */
export const API_MAX_MESSAGE_LENGTH = 10_000_000;

/** How long a command's answer (a message replying to it) is waited for before the request gets an empty one. */
const COMMAND_REPLY_WAIT_MS = 30_000;

/** Finished answers kept for a retried request (same Idempotency-Key) that arrives after its answer. */
const RECENT_ANSWERS = 200;


/** A refusal of a request. */
function refused(params: { status: number; message: string; type: string; code: string; retryAfterSeconds?: number }): TakeResult {
  const { status, retryAfterSeconds } = params;
  return { kind: 'refused', end: { kind: 'failed', status, body: errorBody(params), ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) } };
}

/**
 * An OpenAI-compatible HTTP API (POST /v1/chat/completions, GET /v1/models) on the gateway's HTTP server. Each
 * request's last user message becomes one MessageEvent (accepted only once journaled); its answer is the reply the
 * gateway delivers to it, streamed as SSE deltas (the growth of the reply's text as the gateway edits it) or returned
 * whole, and the request closes when the gateway says the turn ended (`turnEnded`). The sender is the key's position
 * (`key-1`, ...); the session is the `user` field or the X-Hermes-Session header (the header wins), else one per key.
 * What the gateway sends a session outside a request waits in an outbox (GET /v1/hermes/outbox).
 */
export class ApiAdapter implements PlatformAdapter, ApiRouteHost {
  readonly name = 'api';
  readonly capabilities: AdapterCapabilities = {
    edit: true,
    threads: false,
    typing: false,
    reactions: false,
    media: false,
    maxMessageLength: API_MAX_MESSAGE_LENGTH,
    markup: 'markdown',
    buttons: false,
  };
  private readonly config: ApiConfig;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** The id GET /v1/models lists and every response carries. */
  readonly modelId: string;
  /** When the adapter was made (Unix seconds): the model's `created`. */
  private readonly createdAt: number;
  private readonly keys: ApiKeys;
  /** The gateway's streaming cursor (stream.cursor), cut off the text of a reply still streaming. */
  private readonly cursor: string;
  private readonly httpEnabled: boolean;
  private routesRegistered = false;
  private run: AdapterStartParams | undefined;
  /** Requests waiting for their answer, by inbound message id. */
  private readonly pending = new Map<string, PendingReply>();
  /** The answer each sent message belongs to, by adapter message id (while that answer is pending). */
  private readonly partOf = new Map<string, PendingReply>();
  /** Final texts of answered requests that carried an Idempotency-Key, by inbound message id (a retry gets the same). */
  private readonly recent = new Map<string, string>();
  private readonly outbox = new Outbox();
  /** Makes this instance's message ids unique across restarts. */
  private readonly idPrefix = randomBytes(4).toString('hex');
  private sent = 0;

  constructor(params: { config: ApiConfig; modelId: string; cursor: string; httpEnabled: boolean; clock: Clock; logger: Logger }) {
    this.config = params.config;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: 'api' });
    this.modelId = params.modelId;
    this.cursor = params.cursor;
    this.httpEnabled = params.httpEnabled;
    this.createdAt = Math.floor(params.clock.now() / 1000);
    this.keys = new ApiKeys({ keys: params.config.keys });
  }

  /** Adds /v1/chat/completions, /v1/models and /v1/hermes/outbox to the gateway's HTTP server. */
  registerRoutes(params: { app: FastifyInstance; rejections: RejectionRecorder }): void {
    this.routesRegistered = true;
    registerApiRoutes({
      app: params.app,
      rejections: params.rejections,
      logger: this.logger,
      adapter: this,
      keys: this.keys,
      bodyLimitBytes: this.config.body_limit_bytes,
      maxInputChars: this.config.max_input_chars,
      onClose: () => this.failAll({ why: 'the API adapter stopped' }),
    });
  }

  /** Takes requests until `signal` aborts. */
  async start(params: AdapterStartParams): Promise<void> {
    if (!this.httpEnabled || !this.routesRegistered) {
      throw new AdapterFatalError({
        message: 'platforms.api is enabled but the HTTP server is off (gateway.http.enabled: false), so the API has nowhere to listen',
        hint: 'Set gateway.http.enabled: true (and gateway.http.port), or platforms.api.enabled: false.',
      });
    }
    if (this.config.keys.length === 0) throw new AdapterFatalError({ message: 'platforms.api.keys is empty: no client could authenticate', hint: 'Add keys: [${HERMES_API_KEY}] and set HERMES_API_KEY in the profile .env.' });
    const stopped = whenAborted({ signal: params.signal });
    this.run = params;
    params.report({ state: 'connected' });
    this.logger.info({ keys: this.config.keys.length, model: this.modelId }, 'API adapter ready: POST /v1/chat/completions');
    await stopped;
    // Turns still running finish on this adapter while the gateway drains: their requests stay open until then.
    if (this.run === params) this.run = undefined;
  }

  /** The sender of a request made with the key at `index`. */
  senderOf(params: { index: number }): Sender {
    const id = senderIdOfKey(params);
    return { id, name: id, isBot: false };
  }

  /** The adapter's clock (ms since the epoch): when a request's message was received. */
  now(): number {
    return this.clock.now();
  }

  /** Unix seconds the model list gives as `created`. */
  get modelCreated(): number {
    return this.createdAt;
  }

  /** The session's outbox, taken out. */
  collect(params: { chatId: string }): OutboxMessage[] {
    return this.outbox.take(params);
  }

  /** The inbound message id of a request: derived from its Idempotency-Key (a retry is the same message), else new. */
  messageIdFor(params: { senderId: string; idempotencyKey: string | undefined }): string {
    if (params.idempotencyKey === undefined) return `req-${randomUUID()}`;
    return `idem-${createHash('sha256').update(`${params.senderId}\u0000${params.idempotencyKey}`).digest('hex').slice(0, 32)}`;
  }

  /**
   * Hands a request's message to the gateway and returns its answer to follow, or the error to answer with: 503
   * when the adapter is not running or the journal refuses it (with Retry-After), 403 for a sender the gateway does
   * not let talk, 409 for a retry whose answer is no longer held. A retry of a request still open follows that one.
   */
  async take(params: { event: MessageEvent; idempotent: boolean }): Promise<TakeResult> {
    const { event } = params;
    const open = this.pending.get(event.messageId);
    if (open !== undefined) return { kind: 'reply', reply: open };
    const answered = this.recent.get(event.messageId);
    if (answered !== undefined) {
      const reply = this.newReply({ event });
      reply.finishWith({ text: answered });
      return { kind: 'reply', reply };
    }
    const run = this.run;
    if (run === undefined || run.signal.aborted) return refused({ status: 503, message: 'the gateway is starting or stopping; try again shortly', type: 'server_error', code: 'unavailable', retryAfterSeconds: 5 });
    // Registered before the emit: the turn may start sending before the emit resolves.
    const reply = this.newReply({ event });
    this.pending.set(event.messageId, reply);
    void reply.done.then((end) => this.settled({ reply, end, idempotent: params.idempotent }));
    let outcome: EmitOutcome | undefined;
    try {
      if (run.emitWithOutcome === undefined) await run.emit(event);
      else outcome = await run.emitWithOutcome(event);
    } catch (error) {
      if (error instanceof JournalRefusedError) {
        return this.failWith({ reply, result: refused({ status: 503, message: error.message, type: 'server_error', code: 'journal_refused', retryAfterSeconds: error.retryAfterSeconds }) });
      }
      this.logger.warn({ err: error, messageId: event.messageId }, 'a request could not be handed to the gateway');
      return this.failWith({ reply, result: refused({ status: 503, message: 'the gateway cannot take messages right now (it may be stopping); try again shortly', type: 'server_error', code: 'unavailable', retryAfterSeconds: 5 }) });
    }
    return this.outcome({ reply, outcome, sender: event.sender });
  }

  /** What the gateway made of the message decides how its request is answered. */
  private outcome(params: { reply: PendingReply; outcome: EmitOutcome | undefined; sender: Sender }): TakeResult {
    const { reply, outcome } = params;
    const fail = (result: TakeResult): TakeResult => this.failWith({ reply, result });
    switch (outcome) {
      case 'unauthorized':
        return fail(refused({ status: 403, message: `${params.sender.id} may not talk to this agent (platforms.api.allowed_users)`, type: 'permission_error', code: 'not_allowed' }));
      case 'duplicate':
        return fail(refused({ status: 409, message: 'a request with this Idempotency-Key was answered before; its answer is no longer held', type: 'invalid_request_error', code: 'duplicate_request' }));
      case 'deferred':
        return fail(
          refused({ status: 503, message: 'the gateway is restarting: the message is journaled and answered after the restart (the answer then waits in GET /v1/hermes/outbox)', type: 'server_error', code: 'restarting', retryAfterSeconds: 30 }),
        );
      case 'answer':
        // It answered a question the agent is waiting on (clarify): that turn goes on in the request that asked.
        reply.finishWith({ text: '' });
        return { kind: 'reply', reply };
      case 'command': {
        reply.closeWithFirstPart();
        const timer = setTimeout(() => reply.finishWith({ text: '' }), COMMAND_REPLY_WAIT_MS);
        timer.unref();
        void reply.done.then(() => clearTimeout(timer));
        return { kind: 'reply', reply };
      }
      default:
        // Queued for a turn (or a runner that does not say): `turnEnded` closes it.
        if (outcome === undefined && this.run?.mayTalk({ sender: params.sender }) === false) return this.outcome({ ...params, outcome: 'unauthorized' });
        return { kind: 'reply', reply };
    }
  }

  /** Ends `reply` with the refusal `result` carries (so it is forgotten), and returns `result`. */
  private failWith(params: { reply: PendingReply; result: TakeResult }): TakeResult {
    if (params.result.kind === 'refused') params.reply.fail(params.result.end);
    return params.result;
  }

  private newReply(params: { event: MessageEvent }): PendingReply {
    return new PendingReply({ messageId: params.event.messageId, chatId: params.event.chat.id, created: Math.floor(this.clock.now() / 1000), cursor: this.cursor });
  }

  /** An answer ended: forgets it, keeps its text for retries (when idempotent), logs a rewrite the stream could not show. */
  private settled(params: { reply: PendingReply; end: ReplyEnd; idempotent: boolean }): void {
    const { reply, end } = params;
    if (this.pending.get(reply.messageId) === reply) this.pending.delete(reply.messageId);
    for (const id of reply.partIds()) if (this.partOf.get(id) === reply) this.partOf.delete(id);
    if (reply.diverged) this.logger.warn({ messageId: reply.messageId }, 'a reply rewrote text already streamed; the stream carried on from what the client had');
    if (end.kind !== 'done' || !params.idempotent) return;
    this.recent.set(reply.messageId, end.text);
    while (this.recent.size > RECENT_ANSWERS) {
      const oldest = this.recent.keys().next();
      if (oldest.done) break;
      this.recent.delete(oldest.value);
    }
  }

  /** Ends every open request with an error (the routes are going away: shutdown or a reload). */
  private failAll(params: { why: string }): void {
    for (const reply of [...this.pending.values()]) {
      reply.fail({ status: 503, body: errorBody({ message: `${params.why}; the answer is finished after the restart and then waits in GET /v1/hermes/outbox`, type: 'server_error', code: 'unavailable' }), retryAfterSeconds: 30 });
    }
  }

  /**
   * A message to a request (replying to its inbound message) becomes part of that request's answer; any other (a job's
   * result, a notice, an approval question, the answer to a message a restart cut short) waits in the session's outbox.
   */
  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    this.sent += 1;
    const messageId = `api-${this.idPrefix}-${this.sent}`;
    const reply = message.replyToId === undefined ? undefined : this.pending.get(message.replyToId);
    if (reply !== undefined && !reply.isEnded && reply.chatId === message.chat.id) {
      this.partOf.set(messageId, reply);
      reply.update({ partId: messageId, text: message.text });
    } else {
      this.outbox.put({ chatId: message.chat.id, id: messageId, text: message.text, created: Math.floor(this.clock.now() / 1000) });
      this.logger.debug({ chatId: message.chat.id, messageId }, 'message for a session with no request waiting: kept in its outbox');
    }
    return { messageId };
  }

  /** An edit of an answer's message grows the answer (streamed as the delta); of an outbox message, replaces its text. */
  async edit(request: EditRequest): Promise<void> {
    const reply = this.partOf.get(request.messageId);
    if (reply !== undefined && !reply.isEnded) {
      reply.update({ partId: request.messageId, text: request.text });
      return;
    }
    this.outbox.put({ chatId: request.chat.id, id: request.messageId, text: request.text, created: Math.floor(this.clock.now() / 1000) });
  }

  /** Tool activity is not part of the answer: taken here so it never enters the streamed text (not shown). */
  showToolProgress(): void {
    // Chat completions have no place for it.
  }

  /** The turn answering these messages ended: their requests get the reply's final text (a steered-in one, the same). */
  turnEnded(params: { chat: ChatRef; messageIds: readonly string[] }): void {
    const replies = params.messageIds.map((id) => this.pending.get(id)).filter((reply): reply is PendingReply => reply !== undefined);
    const answer = replies.find((reply) => reply.hasParts)?.text({ open: false }) ?? '';
    for (const reply of replies) {
      if (reply.hasParts) reply.finish();
      else reply.finishWith({ text: answer });
    }
  }
}
