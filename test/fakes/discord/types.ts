import type { Clock } from '../../../src/core/clock.js';

/** A JSON object as Discord sends and receives it. */
export type Json = Record<string, unknown>;

/** A channel in a configured guild. `type` follows Discord's ChannelType (0 text, 2 voice, 4 category, 5 news, 15 forum). */
export interface ChannelSpec {
  /** Snowflake id. */
  id: string;
  /** Channel name. */
  name: string;
  /** Discord ChannelType number. */
  type: number;
}

/** A guild the bot is a member of. */
export interface GuildSpec {
  /** Snowflake id; also the id of its @everyone role. */
  id: string;
  /** Guild name. */
  name: string;
  /** Its channels. */
  channels: ChannelSpec[];
  /** Roles besides @everyone (members get them via `roles` in messageCreate/slashCommand). */
  roles?: { id: string; name: string }[];
}

/** Options for `new FakeDiscord(...)`. */
export interface FakeDiscordOptions {
  /** The bot token the fake accepts (`Authorization: Bot <token>`). */
  token: string;
  /** The bot user's id; defaults to '100000000000000001'. */
  botUserId?: string;
  /** The bot's username; defaults to 'hermes-test'. */
  botUsername?: string;
  /** The application id; defaults to the bot user id. */
  applicationId?: string;
  /** Guilds the bot is in; sent as GUILD_CREATE after READY. */
  guilds?: GuildSpec[];
  /** HELLO's heartbeat_interval in ms; defaults to 41250 like Discord. */
  heartbeatIntervalMs?: number;
  /** Time source for timestamps, snowflakes and `calls[].at`; defaults to the system clock. */
  clock?: Clock;
}

/** A user who writes to the bot. */
export interface UserSpec {
  /** Snowflake id. */
  id: string;
  /** Username. */
  username: string;
  /** Display name; defaults to the username. */
  globalName?: string;
  /** True for other bots. */
  bot?: boolean;
}

/** A file attached to an incoming user message. */
export interface IncomingAttachment {
  /** File name. */
  name: string;
  /** File contents, served at the attachment's `url`. */
  bytes: Buffer;
  /** MIME type; defaults to application/octet-stream. */
  contentType?: string;
}

/** What `messageCreate` needs to build a MESSAGE_CREATE. */
export interface MessageCreateOptions {
  /** Guild channel, thread or DM channel (see `openDm`). */
  channelId: string;
  /** The guild when the channel is a guild channel; derived from the channel when omitted. */
  guildId?: string;
  /** The sender. */
  author: UserSpec;
  /** Message text. */
  content: string;
  /** Mentioned users (the bot included when it is mentioned). */
  mentions?: UserSpec[];
  /** Attached files. */
  attachments?: IncomingAttachment[];
  /** The message this one replies to. */
  referencedMessageId?: string;
  /** Role ids of the author's guild membership (guild channels only). */
  roles?: string[];
}

/** A file the bot uploaded. */
export interface SentAttachment {
  /** Attachment id. */
  id: string;
  /** File name. */
  name: string;
  /** Uploaded bytes. */
  bytes: Buffer;
  /** The part's content type, if given. */
  contentType?: string;
  /** A voice message's declared length (payload_json attachments[].duration_secs). */
  durationSecs?: number;
  /** A voice message's declared waveform (base64). */
  waveform?: string;
}

/** A message the bot sent, as the test sees it. */
export interface BotMessage {
  /** Message id. */
  id: string;
  /** Channel id. */
  channelId: string;
  /** Current content. */
  content: string;
  /** How many times it was edited. */
  edits: number;
  /** Every content it had, oldest first (the current one last). */
  history: string[];
  /** Uploaded files. */
  attachments: SentAttachment[];
  /** The message flags sent (8192: a voice message). */
  flags: number;
  /** allowed_mentions as sent, if any. */
  allowed_mentions?: unknown;
  /** message_reference as sent, if any. */
  message_reference?: unknown;
  /** Embeds as sent. */
  embeds: unknown[];
  /** Emoji the bot reacted with. */
  reactions: string[];
  /** True after DELETE. */
  deleted: boolean;
}

/** One REST request the fake received. */
export interface CallRecord {
  /** HTTP method. */
  method: string;
  /** Path below /api/v10, e.g. /channels/1/messages. */
  path: string;
  /** Parsed JSON body (payload_json for multipart), or undefined. */
  body: unknown;
  /** Clock time it arrived. */
  at: number;
}

/** An injected failure for the next request matching `route`. */
export interface FailRule {
  /** 'METHOD /path' below /api/v10, `:x` segments match anything, e.g. 'POST /channels/:id/messages'. */
  route: string;
  /** HTTP status, e.g. 429 or 500. */
  status: number;
  /** Seconds to wait for a 429; defaults to 1. */
  retryAfter?: number;
  /** Marks a 429 as the global limit. */
  global?: boolean;
}
