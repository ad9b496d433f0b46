import type { Clock } from '../../../src/core/clock.js';
import { dmChannelJson, guildChannelJson, userJson } from './payloads.js';
import type { InteractionRecord } from './interactions.js';
import type { BotMessage, CallRecord, GuildSpec, Json, UserSpec } from './types.js';

/** Discord's epoch (2015-01-01) in ms. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** A file served by the fake's attachment download route. */
export interface StoredFile {
  /** Bytes to serve. */
  bytes: Buffer;
  /** MIME type. */
  contentType: string;
}

/** Everything the fake Discord knows: users, channels, messages, files, commands and the request log. */
export class DiscordState {
  /** The bot user. */
  readonly bot: UserSpec;
  /** The application id. */
  readonly applicationId: string;
  /** Configured guilds. */
  readonly guilds: GuildSpec[];
  /** Time source. */
  readonly clock: Clock;
  /** Known users by id. */
  readonly users = new Map<string, UserSpec>();
  /** Channel objects (guild channels, threads, DMs) by id. */
  readonly channels = new Map<string, Json>();
  /** Every message object (user and bot) by id. */
  readonly messages = new Map<string, Json>();
  /** The bot's messages as tests inspect them, by id. */
  readonly botMessages = new Map<string, BotMessage>();
  /** Downloadable files by URL path. */
  readonly files = new Map<string, StoredFile>();
  /** Global application commands. */
  commands: Json[] = [];
  /** How many times the commands were bulk-overwritten. */
  commandOverwrites = 0;
  /** Typing indicators sent, per channel id. */
  readonly typing = new Map<string, number>();
  /** Every reaction the bot added, on any message. */
  readonly reactions: { messageId: string; emoji: string }[] = [];
  /** Interactions dispatched to the bot, by id. */
  readonly interactions = new Map<string, InteractionRecord>();
  /** Every REST request, in arrival order. */
  readonly calls: CallRecord[] = [];
  /** Messages created with a nonce, by `${channelId}:${nonce}`: a repeat with enforce_nonce gets the same message back. */
  readonly nonces = new Map<string, { messageId: string; at: number }>();
  private sequence = 0n;

  constructor(params: { bot: UserSpec; applicationId: string; guilds: GuildSpec[]; clock: Clock }) {
    this.bot = params.bot;
    this.applicationId = params.applicationId;
    this.guilds = params.guilds;
    this.clock = params.clock;
    this.users.set(this.bot.id, this.bot);
    for (const guild of this.guilds) {
      guild.channels.forEach((channel, position) => {
        this.channels.set(channel.id, guildChannelJson({ channel, guildId: guild.id, position }));
      });
    }
  }

  /** A new snowflake: clock time since Discord's epoch plus a counter. */
  nextId(): string {
    this.sequence = (this.sequence + 1n) & 0x3fffffn;
    return ((BigInt(this.clock.now()) - DISCORD_EPOCH) << 22n | this.sequence).toString();
  }

  /** The clock's time as an ISO-8601 timestamp. */
  isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Registers (or updates) a user and returns its user object. */
  rememberUser(params: { user: UserSpec }): Json {
    this.users.set(params.user.id, params.user);
    return userJson({ user: params.user });
  }

  /** The DM channel with `userId`, created on first use. */
  dmChannel(params: { userId: string }): Json {
    for (const channel of this.channels.values()) {
      const recipients = channel['recipients'];
      if (channel['type'] === 1 && Array.isArray(recipients) && (recipients[0] as Json | undefined)?.['id'] === params.userId) {
        return channel;
      }
    }
    const recipient = this.users.get(params.userId) ?? { id: params.userId, username: `user${params.userId}` };
    this.users.set(recipient.id, recipient);
    const channel = dmChannelJson({ id: this.nextId(), recipient });
    this.channels.set(channel['id'] as string, channel);
    return channel;
  }

  /** The guild id a channel belongs to, or undefined for DMs and unknown channels. */
  guildOf(params: { channelId: string }): string | undefined {
    const guildId = this.channels.get(params.channelId)?.['guild_id'];
    return typeof guildId === 'string' ? guildId : undefined;
  }
}
