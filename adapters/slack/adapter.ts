import path from 'node:path';
import { LogLevel, SocketModeClient } from '@slack/socket-mode';
import { WebClient } from '@slack/web-api';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { SlackConfig } from './config-schema.js';
import type {
  AdapterCapabilities, AdapterStartParams, ChatRef, EditRequest, InterruptedSend, MessageEvent, OutboundMessage, PlatformAdapter,
} from '../../src/core/adapter.js';
import { AdapterFatalError, JournalRefusedError } from '../../src/core/errors.js';
import { BoundedSet } from '../../src/util/bounded-set.js';
import type { Clock } from '../../src/core/clock.js';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import { checkCallback, type SlackEventCallback } from './event-schema.js';
import { registerSlackEvents } from './http-events.js';
import { readSlackEvent, type SlackInboundPolicy, type SlackMessageEvent } from './inbound.js';
import { findSentSlack } from './find-sent.js';
import { downloadSlackFiles } from './media-in.js';
import { SlackOutbound, translateSlackError } from './outbound.js';
import { checkPayload, handleSlackPress, type SlackPress } from './presses.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { answerWithin } from './answer-within.js';

/** What the Socket Mode client hands its `slack_event` listeners. */
interface SocketDelivery {
  readonly ack: () => Promise<void>;
  readonly type: string;
  readonly body: unknown;
}

/** How long auth.test gets at each start: a Slack API that never answers is then a logged, retried failure. */
export const IDENTIFY_TIMEOUT_MS = 30_000;

/** The message ts in a gateway message id (`channel:ts`). */
function tsOf(params: { messageId: string }): string {
  return params.messageId.slice(params.messageId.indexOf(':') + 1);
}

export type { SlackConfig };

/**
 * Slack: Socket Mode (default) or the Events API through the gateway's HTTP server. Events are acknowledged only
 * after they are journaled; replies go in threads, streamed by chat.update; files by upload v2; a "thinking"
 * status while a turn runs, always cleared. A Socket Mode connection that stops answering pings is replaced.
 */
export class SlackAdapter implements PlatformAdapter {
  readonly name = 'slack';
  readonly capabilities: AdapterCapabilities = {
    edit: true,
    threads: true,
    typing: true,
    reactions: true,
    media: true,
    // Slack shows up to 4000 characters of a message; mrkdwn conversion can add a few, so split below it.
    maxMessageLength: 3800,
    markup: 'mrkdwn',
    buttons: true,
  };
  private readonly config: SlackConfig;
  private readonly botToken: string;
  private readonly client: WebClient;
  private readonly outbound: SlackOutbound;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly cacheDir: string;
  private readonly seenEvents = new BoundedSet<string>({ max: 5000 });
  private readonly threadsWithBot = new BoundedSet<string>({ max: 10_000 });
  /** Events being taken right now (deleted when settled, so bounded by what is in flight). */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Slack's assistant status only exists in assistant threads; after the first refusal it is not tried again. */
  private assistantStatus = true;
  private handler: ((callback: SlackEventCallback) => Promise<void>) | undefined;
  private pressHandler: ((press: SlackPress) => Promise<void>) | undefined;
  /** Messages (`channel:ts`) this process gave buttons: an edit without choices must remove their blocks explicitly. */
  private readonly withButtons = new BoundedSet<string>({ max: 1000 });

  constructor(params: { config: SlackConfig; cacheDir: string; clock: Clock; logger: Logger }) {
    const token = params.config.bot_token;
    if (token === undefined) throw new AdapterFatalError({ message: 'platforms.slack.bot_token is not set' });
    this.config = params.config;
    this.botToken = token;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: 'slack' });
    this.cacheDir = path.join(params.cacheDir, 'slack');
    // No SDK retries: a post whose answer was lost would be posted twice. Rate limits go to the pacer
    // (RateLimitError), other failures to the delivery's own bounded retries.
    this.client = new WebClient(token, { slackApiUrl: params.config.api_url, rejectRateLimitedCalls: true, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    this.outbound = new SlackOutbound({ client: this.client });
  }

  registerRoutes(params: { app: FastifyInstance; rejections: RejectionRecorder }): void {
    if (this.config.mode !== 'http') return;
    const signingSecret = this.config.signing_secret;
    if (signingSecret === undefined) throw new AdapterFatalError({ message: 'platforms.slack.signing_secret is not set' });
    registerSlackEvents({
      app: params.app,
      path: this.config.events_path,
      signingSecret,
      logger: this.logger,
      rejections: params.rejections,
      clock: this.clock,
      handle: () => this.handler,
      press: () => this.pressHandler,
    });
  }

  async start(params: AdapterStartParams): Promise<void> {
    const identity = await this.identify({ signal: params.signal });
    const policy: SlackInboundPolicy = {
      botUserId: identity.userId,
      ...(identity.botId !== undefined ? { botId: identity.botId } : {}),
      replyInThread: this.config.reply_in_thread,
      strictMention: this.config.strict_mention,
      allowedBots: this.config.allowed_bots,
      threadsWithBot: this.threadsWithBot,
    };
    const handle = async (callback: SlackEventCallback): Promise<void> => {
      const id = callback.eventId;
      // Slack retries an event it thinks was not acknowledged; the event id (and the journal) make it count once.
      // A retry that arrives while the first attempt still runs waits for it, and fails with it (so it is not acked).
      const running = id !== undefined ? this.inFlight.get(id) : undefined;
      if (running) return running;
      if (id !== undefined && !this.seenEvents.add(id)) return;
      const work = (async () => {
        const event = await this.toEvent({ raw: callback.event, policy, params });
        if (event) await params.emit(event);
      })();
      if (id === undefined) return work;
      this.inFlight.set(id, work);
      try {
        await work;
      } catch (error) {
        this.seenEvents.delete(id);
        throw error;
      } finally {
        this.inFlight.delete(id);
      }
    };
    const stopped = whenAborted({ signal: params.signal });
    const press = (pressed: SlackPress): Promise<void> => handleSlackPress({ press: pressed, outbound: this.outbound, choose: params.choose, logger: this.logger });
    this.pressHandler = press;
    try {
      if (this.config.mode === 'http') {
        this.handler = handle;
        params.report({ state: 'connected' });
        await stopped;
        this.handler = undefined;
        return;
      }
      await this.runSocketMode({ params, handle, press, stopped });
    } finally {
      if (this.pressHandler === press) this.pressHandler = undefined;
    }
  }

  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const attachments = message.attachments ?? [];
    if (attachments.length > 1) throw new Error('the Slack adapter uploads one file per message; send them one by one');
    const [attachment] = attachments;
    if (attachment !== undefined) {
      const comment = message.text.trim() !== '' ? message.text : undefined;
      return { messageId: await this.outbound.upload({ chat: message.chat, attachment, ...(comment !== undefined ? { comment } : {}) }) };
    }
    const choices = message.choices ?? [];
    const ts = await this.outbound.post({ chat: message.chat, text: message.text, ...(message.nonce !== undefined ? { nonce: message.nonce } : {}), ...(choices.length > 0 ? { choices } : {}) });
    if (choices.length > 0) this.withButtons.add(`${message.chat.id}:${ts}`);
    return { messageId: ts };
  }

  /** Finds an interrupted post by the nonce in its metadata (see find-sent.ts). */
  async resolveSend(send: InterruptedSend): Promise<{ messageId: string } | undefined> {
    return findSentSlack({ client: this.client, send, logger: this.logger });
  }

  /** Edits a message; its buttons become `choices` (an edit without them removes those this process drew). */
  async edit(request: EditRequest): Promise<void> {
    const key = `${request.chat.id}:${request.messageId}`;
    const choices = request.choices ?? [];
    if (choices.length > 0) {
      await this.outbound.update({ chat: request.chat, ts: request.messageId, text: request.text, choices });
      this.withButtons.add(key);
      return;
    }
    const hadButtons = this.withButtons.has(key);
    await this.outbound.update({ chat: request.chat, ts: request.messageId, text: request.text, ...(hadButtons ? { dropBlocks: true } : {}) });
    if (hadButtons) this.withButtons.delete(key);
  }

  /** Shows "is thinking…" in the thread (Slack's assistant status). */
  async typing(params: { chat: ChatRef }): Promise<void> {
    await this.assistantStatusCall({ chat: params.chat, status: 'is thinking…' });
  }

  async react(params: { chat: ChatRef; messageId: string; emoji: string }): Promise<void> {
    try {
      await this.client.reactions.add({ channel: params.chat.id, timestamp: tsOf({ messageId: params.messageId }), name: params.emoji });
    } catch (error) {
      throw translateSlackError({ error, method: 'reactions.add' });
    }
  }

  async unreact(params: { chat: ChatRef; messageId: string; emoji: string }): Promise<void> {
    try {
      await this.client.reactions.remove({ channel: params.chat.id, timestamp: tsOf({ messageId: params.messageId }), name: params.emoji });
    } catch (error) {
      throw translateSlackError({ error, method: 'reactions.remove' });
    }
  }

  /** Clears the thinking status (also after an error, when no reply cleared it). */
  async typingDone(params: { chat: ChatRef }): Promise<void> {
    await this.assistantStatusCall({ chat: params.chat, status: '' });
  }

  private async assistantStatusCall(params: { chat: ChatRef; status: string }): Promise<void> {
    if (params.chat.threadId === undefined || !this.assistantStatus) return;
    try {
      await this.client.assistant.threads.setStatus({ channel_id: params.chat.id, thread_ts: params.chat.threadId, status: params.status });
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'data' in error ? (error.data as { error?: string }).error : undefined;
      if (code !== undefined && code !== 'ratelimited') this.assistantStatus = false;
      throw translateSlackError({ error, method: 'assistant.threads.setStatus' });
    }
  }

  private async identify(params: { signal: AbortSignal }): Promise<{ userId: string; botId?: string }> {
    try {
      const auth = await answerWithin({ work: this.client.auth.test(), ms: IDENTIFY_TIMEOUT_MS, clock: this.clock, method: 'auth.test', apiUrl: this.config.api_url, signal: params.signal });
      if (auth.user_id === undefined) throw new Error('auth.test gave no user id');
      return { userId: auth.user_id, ...(auth.bot_id !== undefined ? { botId: auth.bot_id } : {}) };
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'data' in error ? (error.data as { error?: string }).error : undefined;
      if (code === 'invalid_auth' || code === 'not_authed' || code === 'account_inactive' || code === 'token_revoked') {
        throw new AdapterFatalError({ message: `Slack rejected the bot token (${code})`, hint: 'Check platforms.slack.bot_token (xoxb-...), then restart.', cause: error });
      }
      throw error;
    }
  }

  private async runSocketMode(params: {
    params: AdapterStartParams;
    handle: (callback: SlackEventCallback) => Promise<void>;
    press: (press: SlackPress) => Promise<void>;
    stopped: Promise<void>;
  }): Promise<void> {
    const appToken = this.config.app_token;
    if (appToken === undefined) throw new AdapterFatalError({ message: 'platforms.slack.app_token is not set (needed for Socket Mode)' });
    const { report } = params.params;
    const socket = new SocketModeClient({
      appToken,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: this.config.api_url },
      // No pong within this time: the connection is treated as dead and replaced ("connected but deaf" is not possible).
      clientPingTimeout: this.config.liveness_timeout,
      serverPingTimeout: this.config.liveness_timeout,
    });
    socket.on('connected', () => report({ state: 'connected' }));
    socket.on('reconnecting', () => report({ state: 'reconnecting', reason: 'Slack Socket Mode connection lost or silent; reconnecting' }));
    socket.on('slack_event', (delivery: SocketDelivery) => {
      // An emitter does not wait for its listener: whatever the handling throws is logged here, never unhandled.
      this.socketEvent({ delivery, handle: params.handle, press: params.press }).catch((error: unknown) => {
        this.logger.error({ err: error }, 'Slack Socket Mode event handling failed');
      });
    });
    const starting = socket.start();
    try {
      // Stopping while the first connection is still being made must not wait for it.
      await Promise.race([starting, params.stopped]);
      await params.stopped;
    } finally {
      // Let a connection still being made finish so it can be closed (else its pings keep running), then close;
      // both bounded, as a half-open socket may never answer.
      await this.bounded({ work: starting.then(() => undefined, () => undefined), ms: 5000 });
      await this.bounded({ work: socket.disconnect().catch(() => undefined), ms: 2000 });
    }
  }

  /** One Socket Mode delivery: a button press (acknowledged first), or an event acknowledged once journaled. */
  private async socketEvent(params: { delivery: SocketDelivery; handle: (callback: SlackEventCallback) => Promise<void>; press: (press: SlackPress) => Promise<void> }): Promise<void> {
    const { delivery } = params;
    if (delivery.type === 'interactive') {
      // Acknowledged at once (Slack wants it within 3 s), then handled: a press is never journaled.
      await delivery.ack().catch(() => undefined);
      const checked = checkPayload({ body: delivery.body });
      if (checked.kind === 'press') await params.press(checked.press);
      else if (checked.kind === 'malformed') this.logger.warn({ issue: checked.issue }, 'Slack interaction of an unexpected shape skipped');
      return;
    }
    const checked = delivery.type === 'events_api' ? checkCallback({ body: delivery.body }) : undefined;
    if (checked?.kind !== 'event') {
      if (checked?.kind === 'malformed') this.logger.warn({ issue: checked.issue }, 'Slack event of an unexpected shape skipped');
      await delivery.ack().catch(() => undefined);
      return;
    }
    try {
      await params.handle(checked.callback);
      await delivery.ack();
    } catch (error) {
      // Disk full: the gateway logged it (rate-limited); no line per event here.
      if (!(error instanceof JournalRefusedError)) this.logger.error({ err: error }, 'Slack event not taken; left unacknowledged so Slack delivers it again');
    }
  }

  /** Waits for `work`, at most `ms`. */
  private async bounded(params: { work: Promise<void>; ms: number }): Promise<void> {
    const guard = new AbortController();
    await Promise.race([params.work, this.clock.sleep(params.ms, guard.signal).catch(() => undefined)]);
    guard.abort();
  }

  private async toEvent(params: { raw: SlackMessageEvent; policy: SlackInboundPolicy; params: AdapterStartParams }): Promise<MessageEvent | undefined> {
    const read = readSlackEvent({ event: params.raw, policy: params.policy, now: this.clock.now() });
    if (read.kind === 'skip') {
      this.logger.debug({ reason: read.reason }, 'Slack event skipped');
      return undefined;
    }
    if (read.files.length === 0 || !params.params.mayTalk({ sender: read.event.sender })) return { ...read.event, media: [] };
    const downloaded = await downloadSlackFiles({
      files: read.files,
      dir: path.join(this.cacheDir, read.event.chat.id),
      botToken: this.botToken,
      apiUrl: this.config.api_url,
      maxBytes: this.config.max_file_size,
      signal: params.params.signal,
      logger: this.logger,
    });
    return { ...read.event, text: [read.event.text, ...downloaded.notes].filter((t) => t !== '').join('\n'), media: downloaded.media };
  }
}
