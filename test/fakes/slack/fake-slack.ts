import { systemClock } from '../../../src/core/clock.js';
import type { HeldAnswer } from '../held-answers.js';
import { Dispatcher } from './dispatch.js';
import { shownButtons, type ShownButton } from './blocks.js';
import { buildUserMessage, eventCallback, signedEventRequest } from './events.js';
import { blockActionsPayload, type PressOptions } from './interactions.js';
import { mimeFor, receiveUpload } from './methods-files.js';
import { SlackHttpServer } from './server.js';
import { SocketModeServer } from './socket-mode.js';
import { SlackState } from './state.js';
import type {
  AckRecord, AddFileOptions, BotMessage, CallRecord, Delivery, DeliverOptions, EphemeralMessage, FailRule, FakeSlackOptions, SlackFileObject,
  UserMessageOptions,
} from './types.js';

/** Default real-time watchdog for waits. */
const DEFAULT_WAIT_MS = 5_000;

/**
 * A Slack workspace on 127.0.0.1 for tests with the real @slack/bolt / @slack/web-api SDKs
 * (`clientOptions: { slackApiUrl: fake.apiUrl }`): the Web API methods the gateway uses, files upload v2,
 * private file downloads, Socket Mode (hello, events_api envelopes, acks, pings), failure injection
 * (429 + Retry-After) and controls to build user events and inspect what the bot did.
 */
export class FakeSlack {
  private readonly state: SlackState;
  private readonly dispatcher: Dispatcher;
  private readonly socket: SocketModeServer;
  private readonly http: SlackHttpServer;
  private port = 0;

  constructor(options: FakeSlackOptions) {
    this.state = new SlackState({
      clock: options.clock ?? systemClock,
      identity: {
        botToken: options.botToken,
        appToken: options.appToken ?? 'xapp-1-fake',
        signingSecret: options.signingSecret ?? 'fake-signing-secret',
        botUserId: options.botUserId ?? 'U0BOT',
        botId: options.botId ?? 'B0BOT',
        teamId: options.teamId ?? 'T0TEAM',
        appId: options.appId ?? 'A0APP',
      },
    });
    this.socket = new SocketModeServer({ state: this.state });
    this.dispatcher = new Dispatcher({ state: this.state, openConnection: () => this.socket.issueUrl() });
    this.http = new SlackHttpServer({
      routes: {
        call: (params) => this.dispatcher.callHeld(params),
        upload: (params) => receiveUpload({ state: this.state, ...params }),
        download: (params) => this.download(params),
        upgrade: (params) => this.socket.upgrade(params),
      },
    });
  }

  /** Starts listening on 127.0.0.1 with an ephemeral port. */
  async start(): Promise<void> {
    this.port = await this.http.start();
    this.state.baseUrl = `http://127.0.0.1:${this.port}`;
  }

  /** The Web API root for `slackApiUrl`, with its trailing slash: http://127.0.0.1:PORT/api/ */
  get apiUrl(): string {
    if (this.port === 0) throw new Error('FakeSlack: call start() before reading apiUrl');
    return `${this.state.baseUrl}/api/`;
  }

  /** Drops Socket Mode connections, fails pending deliveries and stops listening. */
  async close(): Promise<void> {
    await this.socket.close();
    await this.http.close();
  }

  /** The bot's user id (the `<@...>` mention target). */
  get botUserId(): string {
    return this.state.identity.botUserId;
  }

  /** Every Web API call received, in arrival order. */
  get calls(): readonly CallRecord[] {
    return this.dispatcher.calls;
  }

  /** Calls of one method. */
  callsTo(method: string): CallRecord[] {
    return this.dispatcher.calls.filter((c) => c.method === method);
  }

  /** Every Socket Mode ack received, in arrival order. */
  get acks(): readonly AckRecord[] {
    return this.socket.acks;
  }

  /** Open Socket Mode connections. */
  get connections(): number {
    return this.socket.connections;
  }

  /** Makes the next `count` calls of a method fail (default HTTP 429 with Retry-After: retryAfter). */
  failNext(rule: FailRule): void {
    this.dispatcher.failNext({ rule });
  }

  /** Makes the next call of a method take effect (a post creates its message) but hold its answer until `release()` or the client is gone. */
  holdNext(params: { method: string }): HeldAnswer {
    return this.dispatcher.holdNext(params);
  }

  /** Builds a user's `message` event (or `app_mention` when it mentions the bot in a channel); deliver it with deliverEvent. */
  userMessage(options: UserMessageOptions): Record<string, unknown> {
    return buildUserMessage({ state: this.state, options });
  }

  /** Registers a file a user shares; put the returned object in userMessage({ files }). */
  addFile(options: AddFileOptions): SlackFileObject {
    const bytes = typeof options.bytes === 'string' ? Buffer.from(options.bytes, 'utf8') : Buffer.from(options.bytes);
    const id = this.state.nextId({ prefix: 'F' });
    const file = {
      id, name: options.name, title: options.name, mimetype: options.mimetype ?? mimeFor(options.name),
      declaredLength: bytes.length, bytes, user: options.user ?? 'U0USER',
    };
    this.state.files.set(id, file);
    return this.state.fileObject({ file });
  }

  /** The bytes of a stored file (bot uploads included), or undefined. */
  fileBytes(fileId: string): Buffer | undefined {
    return this.state.files.get(fileId)?.bytes;
  }

  /** Sends an event in an `events_api` envelope over Socket Mode and resolves with the client's ack. */
  deliverEvent(options: DeliverOptions): Promise<Delivery> {
    const eventId = options.eventId ?? this.state.nextId({ prefix: 'Ev' });
    const envelopeId = crypto.randomUUID();
    const envelope = {
      envelope_id: envelopeId,
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: options.retryAttempt ?? 0,
      retry_reason: options.retryReason ?? '',
      payload: eventCallback({ state: this.state, event: options.event, eventId }),
    };
    return this.socket
      .send({ envelope, timeoutMs: options.timeoutMs ?? DEFAULT_WAIT_MS })
      .then((ack) => ({ envelopeId, eventId, ack }));
  }

  /** The Events API body for HTTP mode, signed with the fake's signing secret (or `secret`). */
  signedEvent(params: { event: Record<string, unknown>; eventId?: string; retryNum?: number; timestamp?: number; secret?: string }): {
    headers: Record<string, string>;
    body: string;
  } {
    const body = eventCallback({ state: this.state, event: params.event, eventId: params.eventId ?? this.state.nextId({ prefix: 'Ev' }) });
    return signedEventRequest({
      body,
      secret: params.secret ?? this.state.identity.signingSecret,
      ...(params.timestamp !== undefined ? { timestamp: params.timestamp } : {}),
      ...(params.retryNum !== undefined ? { retryNum: params.retryNum } : {}),
    });
  }

  /** The buttons a bot message shows now, row (actions block) by row; [] when it has none. */
  buttons(params: { channel: string; ts: string }): ShownButton[][] {
    return shownButtons({ blocks: this.state.messages.get(`${params.channel}:${params.ts}`)?.blocks });
  }

  /** Ephemeral messages the bot showed (chat.postEphemeral), oldest first. */
  get ephemerals(): EphemeralMessage[] {
    return [...this.state.ephemerals];
  }

  /** The block_actions payload of a user's press of a button under a bot message. */
  pressPayload(options: PressOptions): Record<string, unknown> {
    return blockActionsPayload({ state: this.state, options });
  }

  /** A press over Socket Mode: an `interactive` envelope; resolves with the client's ack. */
  press(options: PressOptions & { timeoutMs?: number }): Promise<{ envelopeId: string; ack: AckRecord }> {
    const envelopeId = crypto.randomUUID();
    const envelope = { envelope_id: envelopeId, type: 'interactive', accepts_response_payload: true, payload: this.pressPayload(options) };
    return this.socket.send({ envelope, timeoutMs: options.timeoutMs ?? DEFAULT_WAIT_MS }).then((ack) => ({ envelopeId, ack }));
  }

  /**
   * A press for HTTP mode: the form-encoded `payload=` Slack POSTs to the interactivity URL, signed with the fake's
   * signing secret (or `secret`); `payload` replaces the built one (e.g. a malformed one).
   */
  signedPress(params: (PressOptions | { payload: string }) & { secret?: string; timestamp?: number }): { headers: Record<string, string>; body: string } {
    const payload = 'payload' in params ? params.payload : JSON.stringify(this.pressPayload(params));
    const signed = signedEventRequest({
      body: new URLSearchParams({ payload }).toString(),
      secret: params.secret ?? this.state.identity.signingSecret,
      ...(params.timestamp !== undefined ? { timestamp: params.timestamp } : {}),
    });
    return { headers: { ...signed.headers, 'content-type': 'application/x-www-form-urlencoded' }, body: signed.body };
  }

  /** Stops answering pings and sending anything while keeping sockets open. */
  goSilent(): void {
    this.socket.goSilent();
  }

  /** Ends goSilent(). */
  speak(): void {
    this.socket.speak();
  }

  /** Destroys every Socket Mode connection abruptly. */
  dropConnections(): void {
    this.socket.dropConnections();
  }

  /** Sends Slack's `disconnect` message (reason e.g. 'refresh_requested'), asking clients to reconnect. */
  requestDisconnect(params: { reason: string }): void {
    this.socket.requestDisconnect(params);
  }

  /** Bot messages in a channel, oldest first, with edits, text history and files (deleted ones flagged). */
  messages(channel: string): BotMessage[] {
    return this.state.channelMessages({ channel });
  }

  /** Reactions the bot has on a message. */
  reactions(params: { channel: string; ts: string }): string[] {
    return [...(this.state.reactions.get(`${params.channel}:${params.ts}`) ?? [])];
  }

  /** Every status assistant.threads.setStatus set on a thread, oldest first ('' means cleared). */
  threadStatuses(params: { channel: string; threadTs: string }): string[] {
    return [...(this.state.statuses.get(`${params.channel}:${params.threadTs}`) ?? [])];
  }

  /**
   * Resolves once `predicate(this)` holds, re-checking after every call, message, ack and connection change.
   * `timeoutMs` (default 5000) is real time, a watchdog for the test.
   */
  waitFor(params: { predicate: (fake: FakeSlack) => boolean; timeoutMs?: number }): Promise<void> {
    const timeoutMs = params.timeoutMs ?? DEFAULT_WAIT_MS;
    return new Promise<void>((resolve, reject) => {
      const watchdog = new AbortController();
      let unsubscribe = (): void => undefined;
      const settle = (error?: unknown): void => {
        unsubscribe();
        watchdog.abort();
        if (error === undefined) resolve();
        else reject(error);
      };
      const check = (): void => {
        try {
          if (params.predicate(this)) settle();
        } catch (error) {
          settle(error);
        }
      };
      unsubscribe = this.state.subscribe(check);
      check();
      systemClock.sleep(timeoutMs, watchdog.signal).then(
        () => settle(new Error(`FakeSlack.waitFor: condition not met within ${timeoutMs} ms; last calls: ${this.describeCalls()}`)),
        () => undefined,
      );
    });
  }

  private describeCalls(): string {
    const recent = this.dispatcher.calls.slice(-8).map((c) => `${c.method}→${c.status === 200 ? (c.error ?? 'ok') : `${c.status} ${c.error ?? ''}`.trim()}`);
    return recent.length > 0 ? recent.join(', ') : 'none';
  }

  private download(params: { fileId: string; token: string | undefined }): { status: number; body: Buffer; contentType: string } {
    if (params.token !== this.state.identity.botToken) {
      return { status: 401, body: Buffer.from('Unauthorized: send Authorization: Bearer <bot token>'), contentType: 'text/plain' };
    }
    const file = this.state.files.get(params.fileId);
    if (!file?.bytes) return { status: 404, body: Buffer.from('Not Found'), contentType: 'text/plain' };
    return { status: 200, body: file.bytes, contentType: file.mimetype };
  }
}
