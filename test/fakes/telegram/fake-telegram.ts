import type { BotCommand, Chat, Update, User } from 'grammy/types';
import { systemClock } from '../../../src/core/clock.js';
import type { HeldAnswer } from '../held-answers.js';
import { Dispatcher } from './dispatch.js';
import { mimeFor, type FileKind } from './files.js';
import { imageInfo } from './image.js';
import { keyboardButtons } from './keyboard.js';
import { buildPress } from './press.js';
import { pushUserMessage } from './push.js';
import { TelegramHttpServer } from './server.js';
import { TelegramState } from './state.js';
import type {
  AddFileOptions, BotMessage, CallRecord, FailRule, FakeTelegramOptions, FileHandle, PressOptions, PressRecord, PushChat, PushMessageOptions, WebhookRecord,
} from './types.js';

/** Default for waitFor's real-time watchdog. */
const DEFAULT_WAIT_MS = 5_000;

/**
 * A Telegram Bot API server on 127.0.0.1 for tests with the real grammy SDK
 * (`new Bot(token, { client: { apiRoot: fake.apiRoot } })`): JSON and multipart requests, Telegram's
 * answers and error texts, getUpdates long polling, file uploads and downloads, plus test controls
 * to push user messages, inject failures and inspect what the bot did.
 */
export class FakeTelegram {
  /** The bot token the fake accepts. */
  readonly token: string;
  private readonly state: TelegramState;
  private readonly dispatcher: Dispatcher;
  private readonly http: TelegramHttpServer;
  private port = 0;
  private pressCount = 0;

  constructor(options: FakeTelegramOptions) {
    this.token = options.token;
    const bot: User & { is_bot: true } = {
      id: options.botId ?? 4242,
      is_bot: true,
      first_name: options.botName ?? 'Hermes Test',
      username: options.botUsername ?? 'hermes_test_bot',
    };
    this.state = new TelegramState({ bot, clock: options.clock ?? systemClock, firstUpdateId: options.firstUpdateId ?? 1 });
    this.dispatcher = new Dispatcher({ state: this.state, token: options.token });
    this.http = new TelegramHttpServer({
      routes: {
        call: (params) => this.dispatcher.call(params),
        download: (params) => this.download(params),
      },
    });
  }

  /** Starts listening on 127.0.0.1 with an ephemeral port. */
  async start(): Promise<void> {
    this.port = await this.http.start();
  }

  /** Root URL for grammy's `client.apiRoot`, e.g. http://127.0.0.1:PORT (no trailing slash). */
  get apiRoot(): string {
    if (this.port === 0) throw new Error('FakeTelegram: call start() before reading apiRoot');
    return `http://127.0.0.1:${this.port}`;
  }

  /** Destroys every connection (open long polls see a network error), ends pending polls and stops listening. */
  async close(): Promise<void> {
    const closing = this.http.close();
    this.state.updates.close();
    await closing;
  }

  /** The bot user getMe returns. */
  get bot(): User {
    return { ...this.state.bot };
  }

  /** Every API call received, in arrival order, with clock timestamps and answered status. */
  get calls(): readonly CallRecord[] {
    return this.dispatcher.calls;
  }

  /** Calls of one method (case-insensitive). */
  callsTo(method: string): CallRecord[] {
    return this.dispatcher.calls.filter((call) => call.method.toLowerCase() === method.toLowerCase());
  }

  /** getUpdates requests open right now (more than one never lasts: Telegram ends the older with 409). */
  get pollers(): number {
    return this.state.updates.pollers;
  }

  /** Updates queued and not yet confirmed with an offset. */
  get pendingUpdates(): number {
    return this.state.updates.pending;
  }

  /** The webhook setWebhook recorded, while set. */
  get webhook(): WebhookRecord | undefined {
    return this.state.webhook ? { ...this.state.webhook } : undefined;
  }

  /** Makes a chat known without a message in it, so the bot can send there (unknown chats get "chat not found"). */
  addChat(chat: PushChat & { first_name?: string }): void {
    const full: Chat = chat.type === 'private'
      ? { id: chat.id, type: 'private', first_name: chat.first_name ?? `User ${chat.id}`, ...(chat.username ? { username: chat.username } : {}) }
      : chat.type === 'group'
        ? { id: chat.id, type: 'group', title: chat.title ?? `Chat ${chat.id}` }
        : { id: chat.id, type: 'supergroup', title: chat.title ?? `Chat ${chat.id}`, ...(chat.is_forum ? { is_forum: true } : {}) };
    this.state.ensureChat({ chat: full });
  }

  /** Registers a file users can send (pushMessage) and the bot can fetch with getFile and download. */
  addFile(options: AddFileOptions): FileHandle {
    const bytes = typeof options.bytes === 'string' ? Buffer.from(options.bytes, 'utf8') : Buffer.from(options.bytes);
    const image = imageInfo({ bytes });
    const mimeType = options.mimeType ?? (options.fileName !== undefined ? mimeFor({ fileName: options.fileName }) : undefined);
    const kind: FileKind = image ? 'photo' : mimeType === 'audio/ogg' ? 'voice' : mimeType?.startsWith('audio/') ? 'audio' : 'document';
    const width = options.width ?? image?.width;
    const height = options.height ?? image?.height;
    const file = this.state.files.add({
      kind,
      bytes,
      duration: options.duration ?? 1,
      ...(options.fileName !== undefined ? { fileName: options.fileName } : {}),
      ...(mimeType !== undefined ? { mimeType } : {}),
      ...(width !== undefined ? { width } : {}),
      ...(height !== undefined ? { height } : {}),
    });
    return { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: bytes.length };
  }

  /** Delivers a user's message (or, with edit, an edited_message) through getUpdates; returns the update. */
  pushMessage(options: PushMessageOptions): Update {
    return pushUserMessage({ state: this.state, options });
  }

  /** Queues any update as given (update_id assigned when missing). */
  pushRaw(update: Omit<Update, 'update_id'> & { update_id?: number }): Update {
    return this.state.updates.push({ update });
  }

  /** The buttons a bot message shows now, row by row (`data` is the callback_data); [] when it has none. */
  buttons(params: { chatId: number; messageId: number }): { text: string; data: string }[][] {
    const chat = this.state.findChat({ chatId: params.chatId });
    const stored = chat ? this.state.message({ chat, messageId: params.messageId }) : undefined;
    return keyboardButtons({ markup: stored?.message.reply_markup });
  }

  /** A user presses a button under a bot message: the callback_query goes out through getUpdates; returns the update. */
  press(options: PressOptions): Update {
    return this.state.updates.push({ update: this.pressUpdate(options) });
  }

  /**
   * A user presses a button while the bot uses a webhook: the update is POSTed to `url` (the local address the
   * webhook's public URL leads to) with the secret token setWebhook gave; returns the HTTP status and the update.
   */
  async pressViaWebhook(params: PressOptions & { url: string }): Promise<{ status: number; update: Update }> {
    const { url, ...options } = params;
    const update = { ...this.pressUpdate(options), update_id: 700_000 + this.pressCount } as Update;
    const secret = this.state.webhook?.secretToken;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
      body: JSON.stringify(update),
    });
    await response.arrayBuffer();
    return { status: response.status, update };
  }

  /** Presses delivered so far, with the bot's answers (answerCallbackQuery), in order. */
  get presses(): PressRecord[] {
    return [...this.state.presses.values()].map((press) => ({ ...press }));
  }

  private pressUpdate(options: PressOptions): Omit<Update, 'update_id'> {
    this.pressCount += 1;
    return buildPress({ state: this.state, options, queryId: `${4_000_000_000 + this.pressCount}` });
  }

  /** Makes the next `count` calls of a method fail: an error status (429 with retryAfter, 409, ...) or a dropped connection. */
  failNext(rule: FailRule): void {
    this.dispatcher.failNext({ rule });
  }

  /** Disarms the failures failNext armed that have not fired yet (e.g. a `count: 1000` outage ends). */
  clearFailures(): void {
    this.dispatcher.clearFailures();
  }

  /**
   * Makes the next call of a method take effect (a sendMessage creates its message) but hold its answer until
   * `release()`, or until the client goes away: the moment a crash test kills the gateway.
   */
  holdNext(params: { method: string }): HeldAnswer {
    return this.dispatcher.holdNext(params);
  }

  /**
   * Holds the next call of a method to one chat: `before` it takes effect (a gateway killed meanwhile made nothing; the
   * call is dropped) or `after` it did (the message exists, its answer is held, as holdNext).
   */
  holdNextIn(params: { method: string; chatId: number; when: 'before' | 'after' }): HeldAnswer {
    return this.dispatcher.holdNextIn(params);
  }

  /** Snapshots of the bot's messages in a chat, oldest first, with edit counts and text history. */
  chatMessages(chatId: number): BotMessage[] {
    return this.state.botMessages({ chatId });
  }

  /** Commands set with setMyCommands for a scope (default {type:'default'}) and language. */
  myCommands(params: { scope?: Record<string, unknown>; language_code?: string } = {}): BotCommand[] {
    const scope = params.scope ?? { type: 'default' };
    const ordered = Object.fromEntries(Object.entries(scope).sort(([a], [b]) => a.localeCompare(b)));
    return [...(this.state.commands.get(`${JSON.stringify(ordered)}|${params.language_code ?? ''}`) ?? [])];
  }

  /**
   * Resolves once `predicate(this)` holds, re-checking after every call, message and update.
   * `timeoutMs` (default 5000) is real time, a watchdog for the test, independent of the fake's clock.
   */
  waitFor(params: { predicate: (fake: FakeTelegram) => boolean; timeoutMs?: number; signal?: AbortSignal }): Promise<void> {
    const timeoutMs = params.timeoutMs ?? DEFAULT_WAIT_MS;
    return new Promise<void>((resolve, reject) => {
      const watchdog = new AbortController();
      let unsubscribe = (): void => undefined;
      const settle = (error?: unknown): void => {
        unsubscribe();
        watchdog.abort();
        params.signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const check = (): boolean => {
        try {
          if (!params.predicate(this)) return false;
          settle();
        } catch (error) {
          settle(error);
        }
        return true;
      };
      const onAbort = (): void => settle(params.signal?.reason);
      if (check()) return;
      if (params.signal?.aborted) return onAbort();
      unsubscribe = this.state.subscribe(() => void check());
      params.signal?.addEventListener('abort', onAbort, { once: true });
      systemClock.sleep(timeoutMs, watchdog.signal).then(
        () => settle(new Error(`FakeTelegram.waitFor: condition not met within ${timeoutMs} ms; last calls: ${this.describeCalls()}`)),
        () => undefined,
      );
    });
  }

  private describeCalls(): string {
    const recent = this.dispatcher.calls.slice(-8).map((c) => `${c.method}→${c.status ?? 'open'}`);
    return recent.length > 0 ? recent.join(', ') : 'none';
  }

  private download(params: { token: string; filePath: string }): { status: number; body: Buffer; contentType: string } {
    const json = (status: number, description: string): { status: number; body: Buffer; contentType: string } => ({
      status,
      body: Buffer.from(JSON.stringify({ ok: false, error_code: status, description })),
      contentType: 'application/json',
    });
    if (params.token !== this.token) return json(401, 'Unauthorized');
    const file = this.state.files.atPath(params.filePath);
    if (!file) return json(404, 'Not Found');
    return { status: 200, body: file.bytes, contentType: file.mimeType ?? 'application/octet-stream' };
  }
}
