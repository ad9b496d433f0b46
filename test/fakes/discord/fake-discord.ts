import type { HeldAnswer } from '../held-answers.js';
import { systemClock } from '../../../src/core/clock.js';
import { DiscordGateway } from './gateway.js';
import { DiscordHttpServer } from './http.js';
import { Intent, messageDelivery } from './intents.js';
import { shownButtons, type ShownButton } from './components.js';
import { buttonInteraction, type ButtonPressOptions } from './presses.js';
import { interactionRoutes, slashCommandInteraction, type InteractionRecord, type SlashCommandOptions } from './interactions.js';
import { incomingMessage } from './messages.js';
import { miscRoutes } from './rest-misc.js';
import { messageRoutes } from './rest-messages.js';
import { DiscordState } from './state.js';
import type { BotMessage, CallRecord, FailRule, FakeDiscordOptions, Json, MessageCreateOptions } from './types.js';

/** Default real-time limit for waitFor. */
const DEFAULT_WAIT_MS = 5_000;
/** Real-time poll step for waitFor. */
const POLL_MS = 5;

/**
 * Discord's REST API (v10) and Gateway on 127.0.0.1 for tests with the real discord.js
 * (`new Client({ intents, rest: { api: fake.apiBase } })`): JSON and multipart requests, Discord's error bodies,
 * rate-limit answers, HELLO/IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME with replay, close codes, plus test controls.
 */
export class FakeDiscord {
  private readonly state: DiscordState;
  private readonly gateway: DiscordGateway;
  private readonly http: DiscordHttpServer;
  private port = 0;

  constructor(options: FakeDiscordOptions) {
    const botId = options.botUserId ?? '100000000000000001';
    this.state = new DiscordState({
      bot: { id: botId, username: options.botUsername ?? 'hermes-test', bot: true },
      applicationId: options.applicationId ?? botId,
      guilds: options.guilds ?? [],
      clock: options.clock ?? systemClock,
    });
    this.gateway = new DiscordGateway({ state: this.state, token: options.token, heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250 });
    const emit = (params: { t: string; d: Json }): void => this.emitEvent(params);
    this.http = new DiscordHttpServer({
      state: this.state,
      token: options.token,
      routes: [
        ...miscRoutes({ state: this.state, gatewayUrl: () => this.gateway.url, emit }),
        ...messageRoutes({ state: this.state, baseUrl: () => this.origin, emit }),
        ...interactionRoutes({ state: this.state }),
      ],
      onUpgrade: (req, socket, head) => this.gateway.handleUpgrade(req, socket, head),
    });
  }

  /** Starts listening on 127.0.0.1 with an ephemeral port. */
  async start(): Promise<void> {
    this.port = await this.http.start();
    this.gateway.setOrigin({ port: this.port });
  }

  /** Drops every gateway socket and stops the HTTP server. */
  async close(): Promise<void> {
    this.gateway.close();
    await this.http.close();
  }

  /** The value for discord.js's `rest.api` option: 'http://127.0.0.1:PORT/api'. */
  get apiBase(): string {
    return `${this.origin}/api`;
  }

  /** The gateway URL GET /gateway/bot returns. */
  get gatewayUrl(): string {
    return this.gateway.url;
  }

  /** Accepted IDENTIFYs. */
  get identifies(): number {
    return this.gateway.identifies;
  }

  /** Accepted RESUMEs. */
  get resumes(): number {
    return this.gateway.resumes;
  }

  /** Gateway sessions with an open socket. */
  get sessions(): number {
    return this.gateway.connected;
  }

  /** Heartbeats acknowledged. */
  get heartbeats(): number {
    return this.gateway.heartbeats;
  }

  /** Intents of every accepted IDENTIFY, in order. */
  get identifyIntents(): readonly number[] {
    return this.gateway.identifyIntents;
  }

  /** Paths ('/gateway' or '/gateway-resume') each accepted RESUME arrived on. */
  get resumePaths(): readonly string[] {
    return this.gateway.resumePaths;
  }

  /** Every REST request, in arrival order. */
  get calls(): readonly CallRecord[] {
    return this.state.calls;
  }

  /** Current global and guild application commands. */
  get commands(): readonly Json[] {
    return this.state.commands;
  }

  /** How many times commands were bulk-overwritten (PUT). */
  get commandOverwrites(): number {
    return this.state.commandOverwrites;
  }

  /** Every reaction the bot added, on any message. */
  get reactions(): readonly { messageId: string; emoji: string }[] {
    return this.state.reactions;
  }

  /** How many typing indicators the bot sent to a channel. */
  typingCount(params: { channelId: string }): number {
    return this.state.typing.get(params.channelId) ?? 0;
  }

  /** The bot's messages in a channel, oldest first (deleted ones included, flagged). */
  channelMessages(params: { channelId: string }): BotMessage[] {
    return [...this.state.botMessages.values()].filter((message) => message.channelId === params.channelId);
  }

  /** A channel object (guild channel, thread or DM), or undefined. */
  channel(params: { channelId: string }): Json | undefined {
    return this.state.channels.get(params.channelId);
  }

  /** The DM channel between the bot and `userId` (created on first use); returns its id. */
  openDm(params: { userId: string; username?: string }): string {
    if (params.username) this.state.rememberUser({ user: { id: params.userId, username: params.username } });
    return this.state.dmChannel({ userId: params.userId })['id'] as string;
  }

  /** Sends a raw DISPATCH (next sequence number) to every session. */
  dispatch(params: { event: string; data: unknown }): void {
    this.gateway.dispatch({ t: params.event, d: params.data });
  }

  /** A user writes a message: builds a realistic MESSAGE_CREATE, dispatches it per intents and returns it. */
  messageCreate(options: MessageCreateOptions): Json {
    const message = incomingMessage({ state: this.state, baseUrl: this.origin, options });
    this.emitEvent({ t: 'MESSAGE_CREATE', d: message });
    return message;
  }

  /** A user runs a registered slash command: dispatches INTERACTION_CREATE (no intent needed) and returns its record. */
  slashCommand(options: SlashCommandOptions): InteractionRecord {
    return this.dispatchInteraction(slashCommandInteraction({ state: this.state, options }));
  }

  /** A user presses a button under a bot message: dispatches INTERACTION_CREATE (MESSAGE_COMPONENT) and returns its record. */
  press(options: ButtonPressOptions): InteractionRecord {
    return this.dispatchInteraction(buttonInteraction({ state: this.state, options }));
  }

  /** Dispatches an INTERACTION_CREATE and returns the record its builder stored. */
  private dispatchInteraction(payload: Json): InteractionRecord {
    this.gateway.dispatch({ t: 'INTERACTION_CREATE', d: payload });
    const record = this.state.interactions.get(payload['id'] as string);
    if (!record) throw new Error('FakeDiscord: the interaction was not recorded');
    return record;
  }

  /** The buttons a message shows now, row by row; [] when it has none. */
  buttons(params: { messageId: string }): ShownButton[][] {
    return shownButtons({ components: this.state.messages.get(params.messageId)?.['components'] });
  }

  /** An interaction by id (its callback and follow-ups), or undefined. */
  interaction(params: { id: string }): InteractionRecord | undefined {
    return this.state.interactions.get(params.id);
  }

  /** Closes every gateway socket with `code`: 4000-4003/4005/4007-4009 keep the session for RESUME, others end it. */
  async closeWith(params: { code: number; reason?: string }): Promise<void> {
    await this.gateway.closeWith(params);
  }

  /** Sends op 7 RECONNECT: the client should reconnect and resume. */
  requestReconnect(): void {
    this.gateway.sendOp({ op: 7, d: null });
  }

  /** Sends op 9 INVALID_SESSION; when not resumable the sessions are dropped and the client must IDENTIFY again. */
  invalidateSession(params: { resumable: boolean }): void {
    this.gateway.sendOp({ op: 9, d: params.resumable });
  }

  /** Makes the next request matching `route` take effect (a POST creates its message) but hold its answer until `release()` or the client is gone. */
  holdNext(params: { route: string }): HeldAnswer {
    return this.http.holdNext(params);
  }

  /** Answers the next request matching `rule.route` with `rule.status` (429s carry Discord's rate-limit body and headers). */
  failNext(rule: FailRule): void {
    this.http.failNext(rule);
  }

  /** Resolves with the predicate's first truthy value; rejects after `timeoutMs` (real time) saying what it waited for. */
  async waitFor<T>(params: { predicate: () => T | undefined | null | false; timeoutMs?: number; what?: string }): Promise<T> {
    const deadline = Date.now() + (params.timeoutMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      const value = params.predicate();
      if (value !== undefined && value !== null && value !== false) return value;
      if (Date.now() >= deadline) {
        throw new Error(`FakeDiscord.waitFor timed out after ${params.timeoutMs ?? DEFAULT_WAIT_MS} ms waiting for ${params.what ?? 'the predicate'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private emitEvent(params: { t: string; d: Json }): void {
    if (params.t.startsWith('MESSAGE_')) {
      const delivery = messageDelivery({ message: params.d, botId: this.state.bot.id });
      this.gateway.dispatch({ t: params.t, d: params.d, intent: delivery.intent, view: delivery.view });
      return;
    }
    this.gateway.dispatch({ t: params.t, d: params.d, intent: Intent.Guilds });
  }
}
