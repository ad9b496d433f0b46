import path from 'node:path';
import { Api } from 'grammy';
import type { Logger } from 'pino';
import type { TelegramConfig } from './config-schema.js';
import type {
  AdapterCapabilities,
  AdapterStartParams,
  ChatRef,
  EditRequest,
  InterruptedSend,
  MessageEvent,
  OutboundMessage,
  PlatformAdapter,
} from '../../src/core/adapter.js';
import { AdapterFatalError } from '../../src/core/errors.js';
import { BoundedSet } from '../../src/util/bounded-set.js';
import { mapLimit } from '../../src/util/map-limit.js';
import type { Clock } from '../../src/core/clock.js';
import type { FastifyInstance } from 'fastify';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import { syncCommandMenu, type MenuCommand } from './commands-menu.js';
import { classifyTelegramError } from './errors.js';
import { findSentTelegram } from './find-sent.js';
import { readUpdate, type BotIdentity } from './inbound.js';
import { PersistedSentIds } from './sent-ids.js';
import { downloadFiles } from './media-in.js';
import { handlePress } from './presses.js';
import { TelegramOutbound } from './outbound.js';
import { allowedUpdates, pollUpdates } from './polling.js';
import { checkUpdate, type TelegramUpdate } from './update-schema.js';
import { registerWebhook } from './webhook.js';
import { grammySignal } from './signal.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { failureLog } from '../../src/util/net-failure.js';

export type { TelegramConfig };

/** Updates of one batch prepared (files downloaded) at the same time. */
const parallelDownloads = 4;

/** Bot tokens being long-polled in this process: a second poller on one token would fight the first (409). */
const pollingTokens = new Set<string>();

/** Telegram through grammy's Bot API client: long polling (default) or webhook, text, files, streamed edits. */
export class TelegramAdapter implements PlatformAdapter {
  readonly name = 'telegram';
  readonly capabilities: AdapterCapabilities = {
    edit: true,
    threads: true,
    typing: true,
    reactions: false,
    media: true,
    maxMessageLength: 4096,
    markup: 'html',
    buttons: true,
  };
  private readonly config: TelegramConfig;
  private readonly token: string;
  private readonly api: Api;
  private readonly outbound: TelegramOutbound;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly cacheDir: string;
  private readonly seenUpdates = new BoundedSet<number>({ max: 5000 });
  /** Messages this process sent and got an answer for: never the message an interrupted send created. */
  private readonly sentIds = new BoundedSet<string>({ max: 5000 });
  /** The recent ones per chat in the adapter's storage: an earlier process's messages are skipped after a crash too. */
  private readonly persistedIds: PersistedSentIds;
  private handler: ((update: TelegramUpdate) => Promise<void>) | undefined;
  private routesRegistered = false;
  /** More menu entries after the gateway's commands (the profile's skills), read at each start. */
  private readonly menuExtras: (() => readonly MenuCommand[]) | undefined;

  constructor(params: { config: TelegramConfig; cacheDir: string; clock: Clock; logger: Logger; menuExtras?: () => readonly MenuCommand[] }) {
    const token = params.config.token;
    if (token === undefined) throw new AdapterFatalError({ message: 'platforms.telegram.token is not set', hint: 'Add the token from @BotFather.' });
    this.config = params.config;
    this.token = token;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: 'telegram' });
    this.cacheDir = path.join(params.cacheDir, 'telegram');
    this.api = new Api(token, { apiRoot: params.config.api_root });
    this.outbound = new TelegramOutbound({ api: this.api, logger: this.logger });
    this.persistedIds = new PersistedSentIds({ logger: this.logger });
    this.menuExtras = params.menuExtras;
  }

  registerRoutes(params: { app: FastifyInstance; rejections: RejectionRecorder }): void {
    if (this.config.mode !== 'webhook') return;
    this.routesRegistered = true;
    const secretToken = this.config.webhook.secret_token;
    if (secretToken === undefined) throw new AdapterFatalError({ message: 'platforms.telegram.webhook.secret_token is not set' });
    registerWebhook({ app: params.app, path: this.config.webhook.path, secretToken, logger: this.logger, rejections: params.rejections, handle: () => this.handler });
  }

  async start(params: AdapterStartParams): Promise<void> {
    const { signal } = params;
    this.persistedIds.attach({ storage: params.storage });
    const bot = await this.identify({ signal });
    const extra = this.menuExtras?.() ?? [];
    await syncCommandMenu({ api: this.api, storage: params.storage, botId: bot.id, signal, extra }).catch((error: unknown) => {
      const log = failureLog({ error, msg: 'could not set the command menu; will try again on the next start', logger: this.logger });
      this.logger.warn(log.fields, log.msg);
    });
    const handleBatch = async (updates: readonly unknown[]): Promise<void> => {
      const fresh = this.readable({ updates }).filter((update) => this.seenUpdates.add(update.update_id));
      // Button presses are answered, never journaled: they go to `choose`, not to a turn.
      for (const update of fresh) {
        if (update.callback_query !== undefined) await handlePress({ query: update.callback_query, bot, outbound: this.outbound, choose: params.choose, logger: this.logger });
      }
      const messages = fresh.filter((update) => update.callback_query === undefined);
      try {
        // Downloads run side by side (a few at a time): an album's parts reach the gateway together (one turn),
        // and one large file does not hold up other chats. Emits (journaling) keep the update order.
        const events = await mapLimit({ items: messages, limit: parallelDownloads, fn: (update) => this.toEvent({ update, bot, signal, mayTalk: params.mayTalk }) });
        for (const event of events) if (event) await params.emit(event);
      } catch (error) {
        for (const update of messages) this.seenUpdates.delete(update.update_id);
        throw error;
      }
    };
    const handle = (update: TelegramUpdate): Promise<void> => handleBatch([update]);
    if (this.config.mode === 'webhook') {
      await this.runWebhook({ ...params, handle });
      return;
    }
    if (pollingTokens.has(this.token)) {
      throw new AdapterFatalError({ message: 'this bot token is already being polled by another Telegram adapter in this process', hint: 'Give each profile its own bot.' });
    }
    pollingTokens.add(this.token);
    try {
      await this.api.deleteWebhook({ drop_pending_updates: false }, grammySignal(signal));
      await pollUpdates({ api: this.api, signal, clock: this.clock, logger: this.logger, report: params.report, handleBatch });
    } finally {
      pollingTokens.delete(this.token);
    }
  }

  /**
   * One platform call per send, so a rate limit never leaves half a send behind to be repeated: a text, or
   * one file (the text, if any, as its caption).
   */
  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const replyTo = message.replyToId !== undefined ? { replyToId: message.replyToId } : {};
    const attachments = message.attachments ?? [];
    if (attachments.length > 1) throw new Error('the Telegram adapter sends one file per message; send them one by one');
    const [attachment] = attachments;
    const choices = message.choices !== undefined && message.choices.length > 0 ? { choices: message.choices } : {};
    if (attachment !== undefined) {
      const caption = attachment.caption ?? (message.text.trim() !== '' ? message.text : undefined);
      const withCaption = caption !== undefined ? { ...attachment, caption } : attachment;
      return this.sent({ chatId: message.chat.id, messageId: await this.outbound.sendFile({ chat: message.chat, attachment: withCaption, ...replyTo, ...choices }) });
    }
    if (message.text.trim() === '') throw new Error('nothing to send: empty text and no attachments');
    const messageId = await this.outbound.sendText({ chat: message.chat, text: message.text, ...replyTo, ...choices });
    // A send with a nonce is journaled (intent, then outbox): an earlier process's one may be the interrupted send itself.
    return this.sent({ chatId: message.chat.id, messageId, persist: message.nonce === undefined });
  }

  /** Remembers a message this process sent (command answers too, which no journal holds); unjournaled ones also in storage. */
  private sent(params: { chatId: string; messageId: string; persist?: boolean }): { messageId: string } {
    this.sentIds.add(`${params.chatId}:${params.messageId}`);
    if (params.persist !== false) this.persistedIds.add(params);
    return { messageId: params.messageId };
  }

  async edit(request: EditRequest): Promise<void> {
    await this.outbound.editText(request);
  }

  /** Finds an interrupted send's message among the ids after the last known one (see find-sent.ts). */
  async resolveSend(send: InterruptedSend): Promise<{ messageId: string } | undefined> {
    return findSentTelegram({ outbound: this.outbound, send, isOwnOther: (id) => this.sentIds.has(`${send.chat.id}:${id}`) || this.persistedIds.has({ chatId: send.chat.id, messageId: id }), logger: this.logger });
  }

  async typing(params: { chat: ChatRef }): Promise<void> {
    const thread = params.chat.threadId !== undefined ? { message_thread_id: Number(params.chat.threadId) } : {};
    try {
      await this.api.sendChatAction(params.chat.id, 'typing', thread);
    } catch (error) {
      // Flood control says how long nothing may call the chat: the gateway holds it that long.
      const failure = classifyTelegramError({ error, method: 'sendChatAction' });
      throw failure.kind === 'rate-limited' ? failure.error : error;
    }
  }

  minInterval(params: { chatId: string }): number | undefined {
    // Group and supergroup ids are negative; Telegram allows about 20 messages a minute there.
    return params.chatId.startsWith('-') ? this.config.group_interval : undefined;
  }

  /** getMe: who the bot is; a rejected token is fatal (no point restarting). */
  private async identify(params: { signal: AbortSignal }): Promise<BotIdentity> {
    try {
      const me = await this.api.getMe(grammySignal(params.signal));
      return { id: me.id, username: me.username };
    } catch (error) {
      const failure = classifyTelegramError({ error, method: 'getMe' });
      throw failure.kind === 'unauthorized' ? failure.error : error;
    }
  }

  /** The updates the adapter can read (update-schema.ts); others are skipped with a log line, never thrown on. */
  private readable(params: { updates: readonly unknown[] }): TelegramUpdate[] {
    const out: TelegramUpdate[] = [];
    for (const body of params.updates) {
      const checked = checkUpdate({ body });
      if (checked.kind === 'update') out.push(checked.update);
      else this.logger.warn({ updateId: checked.kind === 'malformed' ? checked.updateId : undefined, issue: checked.kind === 'malformed' ? checked.issue : 'not an update' }, 'Telegram update of an unexpected shape skipped');
    }
    return out;
  }

  private async runWebhook(params: AdapterStartParams & { handle: (update: TelegramUpdate) => Promise<void> }): Promise<void> {
    const url = this.config.webhook.url;
    if (url === undefined) throw new AdapterFatalError({ message: 'platforms.telegram.webhook.url is not set' });
    if (!this.routesRegistered) {
      throw new AdapterFatalError({
        message: 'Telegram webhook mode needs the gateway HTTP server, which is disabled',
        hint: 'Set gateway.http.enabled: true (and route the public webhook URL to it), or use platforms.telegram.mode: polling.',
      });
    }
    await this.api.setWebhook(url, { secret_token: this.config.webhook.secret_token, allowed_updates: [...allowedUpdates] }, grammySignal(params.signal));
    this.handler = params.handle;
    params.report({ state: 'connected' });
    try {
      await whenAborted({ signal: params.signal });
    } finally {
      this.handler = undefined;
    }
  }

  /** The gateway message for an update, files downloaded; undefined when the update is not for the agent. */
  private async toEvent(params: { update: TelegramUpdate; bot: BotIdentity; signal: AbortSignal; mayTalk: AdapterStartParams['mayTalk'] }): Promise<MessageEvent | undefined> {
    const read = readUpdate({
      update: params.update,
      bot: params.bot,
      policy: { freeResponseChats: this.config.free_response_chats, editedMessages: this.config.edited_messages },
      now: this.clock.now(),
    });
    if (read.kind === 'skip') {
      this.logger.debug({ updateId: params.update.update_id, reason: read.reason }, 'update skipped');
      return undefined;
    }
    // Strangers' files are never downloaded: their message only ever reaches the pairing answer.
    if (read.files.length === 0 || !params.mayTalk({ sender: read.event.sender })) return { ...read.event, media: [] };
    const downloaded = await downloadFiles({
      api: this.api,
      apiRoot: this.config.api_root,
      token: this.token,
      files: read.files,
      dir: path.join(this.cacheDir, read.event.chat.id),
      maxBytes: this.config.max_file_size,
      signal: params.signal,
      logger: this.logger,
    });
    const text = [read.event.text, ...downloaded.notes].filter((line) => line !== '').join('\n');
    return { ...read.event, text, media: downloaded.media };
  }
}
