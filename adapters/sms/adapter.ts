import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import type { Logger } from 'pino';
import type { SmsConfig } from './config-schema.js';
import type { AdapterCapabilities, AdapterStartParams, EditRequest, MessageEvent, OutboundMessage, PlatformAdapter } from '../../src/core/adapter.js';
import { AdapterFatalError, JournalRefusedError, RateLimitError } from '../../src/core/errors.js';
import { RefusedHold } from '../kit/refused-hold.js';
import { BoundedSet } from '../../src/util/bounded-set.js';
import type { Clock } from '../../src/core/clock.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { readTwilioMessage, type TwilioParams, type TwilioRead } from './inbound.js';
import { MediaLinks } from './media-links.js';
import { downloadTwilioMedia } from './media-in.js';
import { composeBody, sortAttachments } from './outbound.js';
import { maskPhone } from '../../src/util/phone.js';
import { toPlainText } from './plain-text.js';
import { checkTwilioAccount } from './account-check.js';
import type { TwilioClient } from './rest-client.js';
import { registerSmsRoutes, type SmsRoutePaths } from './routes.js';
import { recordStatus } from './status.js';

export type { SmsConfig };

/** The twilio SDK's REST client and its error translation, loaded together at the first send. */
interface RestClient {
  readonly client: TwilioClient;
  readonly translate: (params: { error: unknown; method: string }) => unknown;
}

/** The longest SMS body Twilio takes (it sends it as several segments, joined on the phone). */
export const SMS_MAX_LENGTH = 1600;

/** How long an incoming message waits for the adapter to (re)start before Twilio gets 503. */
const STARTUP_WAIT_MS = 10_000;

/** Tries for a notes-only follow-up message that hits a rate limit (its text message already went out). */
const FOLLOW_UP_ATTEMPTS = 3;

/** The adapter's local routes and public URLs, from webhook_path and webhook_url. */
export function smsRoutePaths(params: { webhookPath: string; webhookUrl: string }): SmsRoutePaths & { mediaUrl: string } {
  const local = params.webhookPath.replace(/\/+$/, '');
  const url = new URL(params.webhookUrl);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return { webhookPath: params.webhookPath, webhookUrl: params.webhookUrl, statusPath: `${local}/status`, statusUrl: `${base}/status`, mediaPath: `${local}/media`, mediaUrl: `${base}/media` };
}

/**
 * SMS and MMS through Twilio: incoming messages by signed webhook on the gateway's HTTP server (journaled before
 * Twilio gets its answer; retries counted once), replies through the REST API as plain text in messages of up to
 * 1600 characters, pictures as MMS by signed, expiring links. SMS cannot edit, so only final answers are sent.
 */
export class SmsAdapter implements PlatformAdapter {
  readonly name = 'sms';
  /** Twilio fetches MMS pictures by their signed link after the send. */
  readonly readsAttachmentsLater = true;
  readonly capabilities: AdapterCapabilities = { edit: false, threads: false, typing: false, reactions: false, media: true, voice: false, maxMessageLength: SMS_MAX_LENGTH, markup: 'none' };
  private readonly config: SmsConfig;
  private readonly accountSid: string;
  private readonly authToken: string;
  /** The REST client, made at the first send (the twilio SDK loads then, not at start). */
  private client: Promise<RestClient> | undefined;
  private readonly paths: ReturnType<typeof smsRoutePaths>;
  private readonly links: MediaLinks;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly cacheDir: string;
  private readonly seen = new BoundedSet<string>({ max: 5000 });
  /** Messages being taken right now, by MessageSid (bounded by what is in flight). */
  private readonly inFlight = new Map<string, Promise<void>>();
  private handler: ((params: TwilioParams) => Promise<void>) | undefined;
  private statusHandler: ((params: TwilioParams) => void) | undefined;
  /** Webhooks waiting for the adapter to start (bounded by the requests in flight). */
  private readonly waiting = new Set<() => void>();
  /** Messages the journal refused (disk full), offered again until taken: Twilio retries only when told to. */
  private readonly hold: RefusedHold;
  /** MessageSids being held (a Twilio retry of one is not held twice). */
  private readonly held = new Set<string>();

  /** `refusedRetryMs`: how often a message the journal refused is offered again (tests shorten it). */
  constructor(params: { config: SmsConfig; cacheDir: string; clock: Clock; logger: Logger; refusedRetryMs?: number }) {
    const { config } = params;
    if (config.account_sid === undefined || !config.account_sid.startsWith('AC')) throw new AdapterFatalError({ message: 'platforms.sms.account_sid is not set (AC...)' });
    if (config.auth_token === undefined) throw new AdapterFatalError({ message: 'platforms.sms.auth_token is not set' });
    if (config.webhook_url === undefined) throw new AdapterFatalError({ message: 'platforms.sms.webhook_url is not set', hint: 'Set it to the public URL Twilio posts incoming messages to.' });
    this.config = config;
    this.accountSid = config.account_sid;
    this.authToken = config.auth_token;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: 'sms' });
    this.cacheDir = path.join(params.cacheDir, 'sms');
    this.paths = smsRoutePaths({ webhookPath: config.webhook_path, webhookUrl: config.webhook_url });
    this.links = new MediaLinks({ clock: params.clock, ttlMs: config.media_url_ttl, publicBase: this.paths.mediaUrl, localBase: this.paths.mediaPath });
    this.hold = new RefusedHold({ clock: params.clock, ...(params.refusedRetryMs !== undefined ? { retryMs: params.refusedRetryMs } : {}) });
  }

  /** Adds the webhook, status callback and media link routes (in their own scope, with a form body parser). */
  registerRoutes(params: { app: FastifyInstance; rejections: RejectionRecorder }): void {
    registerSmsRoutes({
      rejections: params.rejections,
      app: params.app,
      paths: this.paths,
      authToken: this.authToken,
      links: this.links,
      handlers: { message: () => this.runningHandler(), status: () => this.statusHandler },
      logger: this.logger,
    });
  }

  /** Checks the credentials (fetches the account), then takes webhooks until `signal` aborts. */
  async start(params: AdapterStartParams): Promise<void> {
    try {
      await checkTwilioAccount({ apiBase: this.config.api_base, accountSid: this.accountSid, authToken: this.authToken, signal: params.signal });
    } catch (error) {
      if (params.signal.aborted) return;
      throw error;
    }
    const stopped = whenAborted({ signal: params.signal });
    this.handler = (fields) => this.take({ fields, params });
    this.statusHandler = (fields) => {
      if (!recordStatus({ params: fields, storage: params.storage, now: this.clock.now(), logger: this.logger })) this.logger.warn('Twilio status callback without MessageSid or MessageStatus ignored');
    };
    for (const wake of this.waiting) wake();
    params.report({ state: 'connected' });
    this.logger.info({ from: maskPhone({ phone: this.config.from_number ?? '' }), messagingService: this.config.messaging_service_sid !== undefined }, 'SMS adapter ready for webhooks');
    await stopped;
    this.handler = undefined;
    this.statusHandler = undefined;
  }

  /** The message handler of the running adapter, waiting a little for one that is (re)starting. */
  private async runningHandler(): Promise<((params: TwilioParams) => Promise<void>) | undefined> {
    if (this.handler) return this.handler;
    const guard = new AbortController();
    let wake = (): void => undefined;
    const started = new Promise<void>((resolve) => {
      wake = resolve;
      this.waiting.add(resolve);
    });
    await Promise.race([started, this.clock.sleep(STARTUP_WAIT_MS, guard.signal).catch(() => undefined)]);
    guard.abort();
    this.waiting.delete(wake);
    return this.handler;
  }

  /** Sends one SMS (an MMS with pictures); Markdown becomes plain text, other files become a note in the text. */
  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const sorted = await sortAttachments({ attachments: message.attachments ?? [], maxBytes: this.config.max_media_size });
    const mediaUrl = sorted.pictures.map((picture) => this.links.link({ file: picture.file, contentType: picture.contentType }));
    const { body, overflow } = composeBody({ text: toPlainText({ markdown: message.text }), notes: sorted.notes, limit: SMS_MAX_LENGTH });
    const sid = await this.create({ to: message.chat.id, body: body === '' && mediaUrl.length === 0 ? '…' : body, mediaUrl });
    if (overflow !== '') await this.followUp({ to: message.chat.id, body: overflow });
    return { messageId: sid };
  }

  /** SMS cannot be edited: always refuses (the gateway sends only final text to adapters without edit). */
  async edit(request: EditRequest): Promise<void> {
    throw new Error(`SMS cannot edit a sent message (${request.messageId}); capabilities.edit is false`);
  }

  /** One messages.create call; a 429 becomes RateLimitError (nothing was sent). */
  private async create(params: { to: string; body: string; mediaUrl: readonly string[] }): Promise<string> {
    const { client, translate } = await this.restClient();
    try {
      const sent = await client.messages.create({
        to: params.to,
        body: params.body,
        ...(this.config.from_number !== undefined ? { from: this.config.from_number } : {}),
        ...(this.config.messaging_service_sid !== undefined ? { messagingServiceSid: this.config.messaging_service_sid } : {}),
        ...(params.mediaUrl.length > 0 ? { mediaUrl: [...params.mediaUrl] } : {}),
        statusCallback: this.paths.statusUrl,
      });
      this.logger.debug({ to: maskPhone({ phone: params.to }), messageSid: sent.sid, chars: params.body.length, media: params.mediaUrl.length }, 'SMS sent');
      return sent.sid;
    } catch (error) {
      throw translate({ error, method: 'messages.create' });
    }
  }

  /** The REST client and its error translation, loaded and made once. */
  private restClient(): Promise<RestClient> {
    this.client ??= import('./rest-client.js').then((rest) => ({
      client: rest.createTwilioClient({ accountSid: this.accountSid, authToken: this.authToken, apiBase: this.config.api_base }),
      translate: rest.translateTwilioError,
    }));
    return this.client;
  }

  /** Sends the notes that did not fit after a message that already went out: rate limits are waited out here. */
  private async followUp(params: { to: string; body: string }): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.create({ to: params.to, body: params.body, mediaUrl: [] });
        return;
      } catch (error) {
        if (!(error instanceof RateLimitError) || attempt >= FOLLOW_UP_ATTEMPTS) {
          this.logger.warn({ err: error, to: maskPhone({ phone: params.to }) }, 'the attachment notes after an SMS could not be sent');
          return;
        }
        await this.clock.sleep(error.retryAfterMs);
      }
    }
  }

  /** Takes one incoming message: once per MessageSid, media downloaded for senders who may talk, then journaled. */
  private async take(params: { fields: TwilioParams; params: AdapterStartParams }): Promise<void> {
    // The configured number, and the number the message was sent to (ours; with a Messaging Service it is the only one known).
    const ownNumbers = [this.config.from_number, params.fields['To']].filter((n): n is string => n !== undefined && n !== '');
    const read = readTwilioMessage({ params: params.fields, ownNumbers, now: this.clock.now() });
    if (read.kind === 'skip') {
      this.logger.debug({ reason: read.reason, from: maskPhone({ phone: params.fields['From'] ?? '' }) }, 'SMS webhook skipped');
      return;
    }
    const id = read.event.messageId;
    // Twilio retries a webhook it thinks failed: a retry while the first attempt still runs waits for it.
    const running = this.inFlight.get(id);
    if (running) return running;
    if (!this.seen.add(id)) {
      this.logger.info({ messageSid: id }, 'SMS redelivered by Twilio; already taken');
      return;
    }
    let taken: MessageEvent | undefined;
    const work = (async () => {
      const event = await this.withMedia({ read, params: params.params });
      taken = event;
      this.logger.info({ messageSid: id, from: maskPhone({ phone: read.event.sender.id }), media: event.media.length }, 'SMS received');
      await params.params.emit(event);
    })();
    this.inFlight.set(id, work);
    try {
      await work;
    } catch (error) {
      this.seen.delete(id);
      // The webhook still fails (Twilio retries it only as its URL's connection overrides, #rc/#rp, say); it is also held here.
      if (error instanceof JournalRefusedError && taken !== undefined) this.holdRefused({ event: taken, params: params.params });
      throw error;
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** Offers a message the journal refused again until it is taken; given up on, tells an allowed sender to resend. */
  private holdRefused(params: { event: MessageEvent; params: AdapterStartParams }): void {
    const { event } = params;
    const messageSid = event.messageId;
    if (this.held.has(messageSid)) return;
    this.held.add(messageSid);
    this.logger.warn({ messageSid, held: this.hold.size + 1 }, 'SMS held: the gateway cannot journal it yet (disk full); offered again until it can');
    void this.hold
      .retry({ take: () => params.params.emit(event), signal: params.params.signal })
      .then(async (taken) => {
        if (taken) return;
        this.logger.warn({ messageSid }, 'a held SMS was given up on; the sender is asked to send it again');
        if (!params.params.mayTalk({ sender: event.sender })) return;
        await this.send({ chat: event.chat, text: 'I could not take your message: my disk is full. Please send it again in a few minutes.' });
      })
      .catch((error: unknown) => this.logger.warn({ err: error, messageSid }, 'a held SMS could not be taken'))
      .finally(() => this.held.delete(messageSid));
  }

  /** The event with its media downloaded (only for senders who may talk; strangers cost no downloads). */
  private async withMedia(params: { read: Extract<TwilioRead, { kind: 'message' }>; params: AdapterStartParams }): Promise<MessageEvent> {
    const { read } = params;
    if (read.media.length === 0 || !params.params.mayTalk({ sender: read.event.sender })) return { ...read.event, media: [] };
    const downloaded = await downloadTwilioMedia({
      media: read.media,
      messageSid: read.event.messageId,
      dir: this.cacheDir,
      accountSid: this.accountSid,
      authToken: this.authToken,
      apiBase: this.config.api_base,
      maxBytes: this.config.max_media_size,
      signal: params.params.signal,
      logger: this.logger,
    });
    return { ...read.event, text: [read.event.text, ...downloaded.notes].filter((t) => t !== '').join('\n'), media: downloaded.media };
  }
}
