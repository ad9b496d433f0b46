import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  Client, DiscordAPIError, DiscordjsErrorCodes, Events, MessageFlags, MessagePayload, GatewayIntentBits, Partials, type ChatInputCommandInteraction, type Message, type SendableChannels,
} from 'discord.js';
import type { Logger } from 'pino';
import type { DiscordConfig } from './config-schema.js';
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
import { AdapterFatalError, JournalRefusedError } from '../../src/core/errors.js';
import { BoundedSet } from '../../src/util/bounded-set.js';
import type { Clock } from '../../src/core/clock.js';
import { openThread, wantsThread } from './auto-thread.js';
import { choiceComponents, handleButtonPress } from './buttons.js';
import { readMessage, type DiscordInboundPolicy } from './inbound.js';
import { readCommand, takeCommand } from './interactions.js';
import { oversizeNote, voiceMessageFiles } from './media-out.js';
import { syncSlashCommands } from './slash-commands.js';
import { downloadAttachments } from './media-in.js';
import { RefusedHold } from '../kit/refused-hold.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { failureLog } from '../../src/util/net-failure.js';

export type { DiscordConfig };

/** Only the intents the adapter needs: guild and DM messages, and their content. */
const intents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent];

/** Snowflakes count milliseconds from 2015-01-01. */
const discordEpoch = 1_420_070_400_000n;

/** How many recent interaction ids are remembered (replies to them carry no message reference). */
const INTERACTION_MEMORY = 1_000;

/** Nobody is pinged by the bot's replies except the people named in them: no @everyone, @here or roles. */
const allowedMentions = { parse: ['users' as const], repliedUser: false };

/**
 * Discord through discord.js: the Gateway connection (resume and reconnect by the SDK, reported to the
 * supervisor), messages in DMs and addressed guild messages, replies with 2000-character chunks, files, typing.
 * Rate limits are discord.js's own REST queue: it waits and retries; no second queue here.
 */
export class DiscordAdapter implements PlatformAdapter {
  readonly name = 'discord';
  readonly capabilities: AdapterCapabilities = {
    edit: true,
    threads: true,
    typing: true,
    reactions: true,
    media: true,
    maxMessageLength: 2000,
    markup: 'markdown',
    buttons: true,
  };
  private readonly config: DiscordConfig;
  private readonly token: string;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly cacheDir: string;
  private client: Client | undefined;
  /** Recent slash-command interaction ids: the gateway replies "to" them, but they are not messages. */
  private readonly interactionIds = new Set<string>();
  /** Messages the journal refused (disk full), offered again until taken: Discord never redelivers. */
  private readonly hold: RefusedHold;
  /** Messages this process gave buttons: an edit without choices must remove their components explicitly. */
  private readonly withButtons = new BoundedSet<string>({ max: 1000 });

  /** `refusedRetryMs`: how often a message the journal refused is offered again (tests shorten it). */
  constructor(params: { config: DiscordConfig; cacheDir: string; clock: Clock; logger: Logger; refusedRetryMs?: number }) {
    const token = params.config.token;
    if (token === undefined) throw new AdapterFatalError({ message: 'platforms.discord.token is not set', hint: 'Add the bot token from the Discord developer portal.' });
    this.config = params.config;
    this.token = token;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: 'discord' });
    this.cacheDir = path.join(params.cacheDir, 'discord');
    this.hold = new RefusedHold({ clock: params.clock, ...(params.refusedRetryMs !== undefined ? { retryMs: params.refusedRetryMs } : {}) });
  }

  async start(params: AdapterStartParams): Promise<void> {
    const client = new Client({ intents, partials: [Partials.Channel], rest: { api: this.config.api_url } });
    this.client = client;
    const stopped = whenAborted({ signal: params.signal });
    let fail: (error: Error) => void = () => undefined;
    const failed = new Promise<never>((_resolve, reject) => {
      fail = reject;
    });
    // A failure may come before anyone awaits `failed` (e.g. during login): never an unhandled rejection.
    failed.catch(() => undefined);
    client.on(Events.ClientReady, (ready) => {
      params.report({ state: 'connected' });
      syncSlashCommands({ application: ready.application, storage: params.storage }).then(
        (registered) => {
          if (registered !== undefined) this.logger.info({ commands: registered, count: registered.length }, 'Discord slash commands registered');
        },
        (error: unknown) => {
          const log = failureLog({ error, msg: 'Discord slash commands could not be registered; typed /commands still work', logger: this.logger });
          this.logger.warn(log.fields, log.msg);
        },
      );
    });
    client.on(Events.ShardResume, () => params.report({ state: 'connected' }));
    client.on(Events.ShardReconnecting, () => params.report({ state: 'reconnecting', reason: 'Discord gateway reconnecting' }));
    // discord.js emits ShardDisconnect only for closes it will not recover from (4004, 4010-4014): the
    // supervisor must hear it, or the adapter would look "reconnecting" for ever.
    client.on(Events.ShardDisconnect, (event) => fail(fatalClose({ code: event.code })));
    client.on(Events.Error, (error) => {
      const log = failureLog({ error, msg: 'Discord client error', logger: this.logger });
      this.logger.warn(log.fields, log.msg);
    });
    client.on(Events.MessageCreate, (message) => {
      // Discord does not deliver a message twice: if journaling fails, try again before giving up on it.
      void this.takeMessage({ message, params, botId: client.user?.id ?? '' }).catch((error: unknown) => {
        this.logger.error({ err: error, messageId: message.id }, 'a Discord message could not be taken after retries; it stays unanswered');
      });
    });
    client.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isButton()) {
        void handleButtonPress({ interaction, choose: params.choose, removeButtons: (target) => this.removeButtons(target), logger: this.logger });
        return;
      }
      if (!interaction.isChatInputCommand()) return;
      void this.onCommand({ interaction, params }).catch((error: unknown) => {
        this.logger.error({ err: error, interactionId: interaction.id }, 'a Discord slash command could not be taken');
      });
    });
    try {
      await Promise.race([client.login(this.token), stopped]);
      await Promise.race([stopped, failed]);
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === DiscordjsErrorCodes.TokenInvalid) {
        throw new AdapterFatalError({ message: 'Discord rejected the bot token', hint: 'Check platforms.discord.token (developer portal → Bot → Reset Token), then restart.', cause: error });
      }
      throw error;
    } finally {
      await client.destroy();
      this.client = undefined;
    }
  }

  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const channel = await this.channel({ chat: message.chat });
    const replyTo = message.replyToId !== undefined && !this.interactionIds.has(message.replyToId) ? message.replyToId : undefined;
    const common = {
      allowedMentions,
      ...(replyTo !== undefined ? { reply: { messageReference: replyTo, failIfNotExists: false } } : {}),
      // With enforce_nonce Discord answers a repeated nonce (within minutes) with the message it already created.
      ...(message.nonce !== undefined ? { nonce: message.nonce, enforceNonce: true } : {}),
    };
    const voice = await voiceMessageFiles({ message, maxFileSize: this.config.max_file_size });
    if (voice !== undefined) {
      try {
        // Discord keeps a voice message's duration and waveform only for an audio upload: the part says audio/ogg
        // (discord.js would sniff the bytes as application/ogg).
        const payload = await MessagePayload.create(channel, { ...common, files: voice, flags: MessageFlags.IsVoiceMessage }).resolveBody().resolveFiles();
        for (const file of payload.files ?? []) file.contentType = 'audio/ogg';
        const sent = await channel.send(payload);
        return { messageId: sent.id };
      } catch (error) {
        // A channel where the bot may not send voice messages still gets the audio, as a file.
        if (!(error instanceof DiscordAPIError) || error.status >= 500) throw error;
        this.logger.warn({ code: error.code, status: error.status }, 'Discord refused the voice message; sending the audio as a file');
      }
    }
    const files = [];
    const notes: string[] = [];
    for (const attachment of message.attachments ?? []) {
      const info = await stat(attachment.path);
      const name = path.basename(attachment.path);
      // An oversized file is not uploaded: the message says so instead, so the person learns why it is missing.
      if (info.size > this.config.max_file_size) notes.push(oversizeNote({ name, size: info.size, limit: this.config.max_file_size }));
      else files.push({ attachment: attachment.path, name });
    }
    const text = [message.text, ...notes].filter((part) => part.trim() !== '').join('\n');
    if (text.length > this.capabilities.maxMessageLength) throw new Error(`${notes.join(' ')} (and the message text is too long to say so in it)`);
    const content = text === '' ? undefined : text;
    const choices = message.choices ?? [];
    const sent = await channel.send({
      ...common,
      ...(content !== undefined ? { content } : {}),
      files,
      ...(choices.length > 0 ? { components: choiceComponents({ choices }) } : {}),
    });
    if (choices.length > 0) this.withButtons.add(sent.id);
    return { messageId: sent.id };
  }

  /**
   * Sends the interrupted message again with its nonce: Discord returns the message the first call created, or
   * creates it now if that call never arrived. Past Discord's nonce window (a few minutes) a copy is possible.
   */
  async resolveSend(send: InterruptedSend): Promise<{ messageId: string } | undefined> {
    const calledAt = this.clock.now();
    const found = await this.send({ chat: send.chat, text: send.text, nonce: send.nonce, ...(send.replyToId !== undefined ? { replyToId: send.replyToId } : {}) });
    if (send.retire !== true) return found;
    // Discord's answer does not say whether it created the message now: its creation time does. Closer to the
    // first send than to this call means it is that send's message; else this call made it, and it goes again.
    const createdAt = Number((BigInt(found.messageId) >> 22n) + discordEpoch);
    if (createdAt - send.sentAt < calledAt - createdAt) return found;
    const channel = await this.channel({ chat: send.chat });
    await channel.messages.delete(found.messageId);
    return undefined;
  }

  /** Edits a message; its buttons become `choices` (an edit without them removes those this process drew). */
  async edit(request: EditRequest): Promise<void> {
    const channel = await this.channel({ chat: request.chat });
    const choices = request.choices ?? [];
    const hadButtons = this.withButtons.has(request.messageId);
    const components = choices.length > 0 ? { components: choiceComponents({ choices }) } : hadButtons ? { components: [] } : {};
    await channel.messages.edit(request.messageId, { content: request.text, allowedMentions, ...components });
    if (choices.length > 0) this.withButtons.add(request.messageId);
    else if (hadButtons) this.withButtons.delete(request.messageId);
  }

  /** Removes a message's buttons, keeping its content (a retired question). */
  private async removeButtons(params: { chat: ChatRef; messageId: string }): Promise<void> {
    const channel = await this.channel({ chat: params.chat });
    await channel.messages.edit(params.messageId, { components: [] });
    this.withButtons.delete(params.messageId);
  }

  async typing(params: { chat: ChatRef }): Promise<void> {
    const channel = await this.channel({ chat: params.chat });
    await channel.sendTyping();
  }

  async react(params: { chat: ChatRef; messageId: string; emoji: string }): Promise<void> {
    const channel = await this.channel({ chat: params.chat });
    await channel.messages.react(params.messageId, params.emoji);
  }

  /** The channel a chat id names (from discord.js's cache, else fetched). */
  private async channel(params: { chat: ChatRef }): Promise<SendableChannels & { messages: Message['channel']['messages'] }> {
    const client = this.client;
    if (!client) throw new Error('the Discord adapter is not connected');
    const channel = await client.channels.fetch(params.chat.id);
    if (!channel || !channel.isSendable() || !('messages' in channel)) throw new Error(`Discord channel ${params.chat.id} cannot receive messages`);
    return channel;
  }

  /** The channel rules from config. */
  private get policy(): DiscordInboundPolicy {
    return {
      freeResponseChannels: this.config.free_response_channels,
      allowedChannels: this.config.allowed_channels,
      ignoredChannels: this.config.ignored_channels,
      autoThread: this.config.auto_thread,
    };
  }

  private async onCommand(params: { interaction: ChatInputCommandInteraction; params: AdapterStartParams }): Promise<void> {
    const { interaction } = params;
    const read = readCommand({ interaction, policy: this.policy, now: this.clock.now() });
    if (read.kind === 'skip') {
      this.logger.debug({ interactionId: interaction.id, reason: read.reason }, 'Discord slash command skipped');
      return;
    }
    this.interactionIds.add(interaction.id);
    if (this.interactionIds.size > INTERACTION_MEMORY) this.interactionIds.delete(this.interactionIds.values().next().value ?? '');
    await takeCommand({ interaction, event: read.event, mayTalk: params.params.mayTalk({ sender: read.event.sender }), emit: params.params.emit });
  }

  /**
   * Takes a message, trying again briefly when journaling fails. Refused by a full disk, it is held and offered
   * again until the gateway takes it; given up on, the sender is told to send it again.
   */
  private async takeMessage(params: { message: Message; params: AdapterStartParams; botId: string }): Promise<void> {
    try {
      await retrying({ clock: this.clock, attempts: 4, work: () => this.onMessage(params) });
      return;
    } catch (error) {
      if (!(error instanceof JournalRefusedError)) throw error;
      this.logger.warn({ messageId: params.message.id, held: this.hold.size + 1 }, 'Discord message held: the gateway cannot journal it yet (disk full); offered again until it can');
    }
    if (await this.hold.retry({ take: () => this.onMessage(params), signal: params.params.signal })) return;
    this.logger.warn({ messageId: params.message.id }, 'a held Discord message was given up on; the sender is asked to send it again');
    if (!params.params.mayTalk({ sender: { id: params.message.author.id, isBot: params.message.author.bot } })) return;
    await params.message
      .reply({ content: 'I could not take this message: my disk is full. Please send it again in a few minutes.', allowedMentions: { parse: [], repliedUser: false } })
      .catch((error: unknown) => this.logger.warn({ err: error, messageId: params.message.id }, 'could not tell the sender their message was not taken'));
  }

  private async onMessage(params: { message: Message; params: AdapterStartParams; botId: string }): Promise<void> {
    const read = readMessage({ message: params.message, botId: params.botId, policy: this.policy, now: this.clock.now() });
    if (read.kind === 'skip') {
      this.logger.debug({ messageId: params.message.id, reason: read.reason }, 'Discord message skipped');
      return;
    }
    let event: MessageEvent = { ...read.event, media: [] };
    const mayTalk = params.params.mayTalk({ sender: read.event.sender });
    if (this.config.auto_thread && mayTalk && read.event.mentioned && wantsThread({ message: params.message })) {
      try {
        event = { ...event, chat: { id: await openThread({ message: params.message, text: read.event.text }), kind: 'channel' } };
      } catch (error) {
        this.logger.warn({ err: error, messageId: params.message.id }, 'auto_thread: could not open a thread; answering in the channel');
      }
    }
    if (read.files.length > 0 && mayTalk) {
      const downloaded = await downloadAttachments({
        files: read.files,
        dir: path.join(this.cacheDir, read.event.chat.id),
        messageId: read.event.messageId,
        maxBytes: this.config.max_file_size,
        signal: params.params.signal,
        logger: this.logger,
      });
      event = { ...event, text: [event.text, ...downloaded.notes].filter((t) => t !== '').join('\n'), media: downloaded.media };
    }
    await params.params.emit(event);
  }
}

/** The supervisor's view of a Gateway close discord.js will not recover from. */
function fatalClose(params: { code: number }): AdapterFatalError {
  const hints: Readonly<Record<number, string>> = {
    4004: 'Discord rejected the bot token: check platforms.discord.token, then restart.',
    4013: 'Discord refused the intents: this is a bug in hermes, please report it.',
    4014: 'Discord refused a privileged intent: enable "Message Content Intent" for the bot in the developer portal, then restart.',
  };
  return new AdapterFatalError({ message: `Discord closed the gateway connection for good (${params.code})`, hint: hints[params.code] ?? 'See the gateway log; restart once fixed.' });
}

/** Runs `work`, trying again with a short backoff when it throws. */
async function retrying(params: { clock: Clock; attempts: number; work: () => Promise<void> }): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await params.work();
      return;
    } catch (error) {
      if (attempt >= params.attempts) throw error;
      await params.clock.sleep(250 * 2 ** attempt);
    }
  }
}
