import type { Clock } from '../../../src/core/clock.js';

/** Identity and knobs of a FakeSlack workspace. */
export interface FakeSlackOptions {
  /** The bot token (xoxb-...) Web API calls must carry. */
  botToken: string;
  /** The app-level token (xapp-...) apps.connections.open must carry. */
  appToken?: string;
  /** The signing secret signedEventRequest uses by default. */
  signingSecret?: string;
  /** The bot's user id (default U0BOT). */
  botUserId?: string;
  /** The bot's bot id (default B0BOT). */
  botId?: string;
  /** The workspace id (default T0TEAM). */
  teamId?: string;
  /** The app id (default A0APP). */
  appId?: string;
  /** Clock for message timestamps and call records (default systemClock). */
  clock?: Clock;
}

/** Parsed request parameters: strings from forms, any JSON value from JSON bodies. */
export type Params = Record<string, unknown>;

/** One Web API call the fake received. */
export interface CallRecord {
  /** The method, e.g. chat.postMessage. */
  method: string;
  /** Parameters without the token. */
  params: Params;
  /** Clock time of arrival. */
  at: number;
  /** HTTP status answered. */
  status: number;
  /** Slack's error code when the answer was ok:false. */
  error?: string;
}

/** Makes the next `count` calls of a method fail. */
export interface FailRule {
  /** The Web API method, e.g. chat.postMessage. */
  method: string;
  /** HTTP status (default 429); 429 carries Retry-After. */
  status?: number;
  /** Seconds for the Retry-After header (default 1). */
  retryAfter?: number;
  /** With status 200: the Slack error code to answer ok:false with (e.g. channel_not_found). */
  error?: string;
  /** How many calls fail (default 1). */
  count?: number;
}

/** A file stored in the fake: uploaded by the bot or shared by a user. */
export interface StoredFile {
  /** Slack file id (F...). */
  id: string;
  /** File name. */
  name: string;
  /** Title (defaults to the name). */
  title: string;
  /** MIME type. */
  mimetype: string;
  /** Declared length from files.getUploadURLExternal, or the byte count. */
  declaredLength: number;
  /** The bytes, once uploaded. */
  bytes?: Buffer;
  /** Uploader user id. */
  user: string;
}

/** The Slack `file` object as events and API answers carry it. */
export interface SlackFileObject {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  user: string;
  url_private: string;
  url_private_download: string;
  permalink: string;
  mode: 'hosted';
  is_external: false;
}

/** A bot message as the fake stores it, with its edit trail. */
export interface BotMessage {
  /** Message timestamp (its id within the channel). */
  ts: string;
  /** Channel id. */
  channel: string;
  /** Current text. */
  text: string;
  /** Parent thread ts when posted in a thread. */
  thread_ts?: string;
  /** Number of chat.update calls applied. */
  edits: number;
  /** Every text the message had, oldest first (includes the current one). */
  history: string[];
  /** Files shared with the message. */
  files?: SlackFileObject[];
  /** Metadata posted with it (returned by conversations.history/replies with include_all_metadata). */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Whether chat.delete removed it. */
  deleted: boolean;
  /** Its Block Kit blocks, while it has any (chat.update without `blocks` keeps them; `blocks: []` removes them). */
  blocks?: unknown[];
}

/** A message only one user saw (chat.postEphemeral). */
export interface EphemeralMessage {
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
  at: number;
}

/** One ack a Socket Mode client sent. */
export interface AckRecord {
  /** The envelope it acknowledges. */
  envelope_id: string;
  /** The ack's payload (empty object for plain acks). */
  payload: unknown;
  /** Clock time of arrival. */
  at: number;
}

/** Channel kinds userMessage can build events for. */
export type ChannelType = 'im' | 'channel' | 'group';

/** Options for userMessage. */
export interface UserMessageOptions {
  /** Channel id (D... for DMs, C... channels, G... private groups). */
  channel: string;
  /** Kind of channel. */
  channelType: ChannelType;
  /** Sending user id. */
  user: string;
  /** Message text (Slack mrkdwn; mention the bot as <@U0BOT>). */
  text: string;
  /** Thread parent ts when replying in a thread. */
  threadTs?: string;
  /** Files shared with the message (from addFile). */
  files?: SlackFileObject[];
}

/** Options for addFile. */
export interface AddFileOptions {
  /** File content. */
  bytes: Buffer | Uint8Array | string;
  /** File name. */
  name: string;
  /** MIME type (default application/octet-stream). */
  mimetype?: string;
  /** Sharing user (default U0USER). */
  user?: string;
}

/** Options for deliverEvent. */
export interface DeliverOptions {
  /** The inner Events API event (e.g. from userMessage). */
  event: Record<string, unknown>;
  /** Reuse an event_id to simulate Slack's redelivery (default: a new one). */
  eventId?: string;
  /** retry_attempt in the envelope (default 0). */
  retryAttempt?: number;
  /** retry_reason in the envelope (default ''; Slack uses e.g. 'timeout'). */
  retryReason?: string;
  /** Real-time ms to wait for a connection and its ack (default 5000). */
  timeoutMs?: number;
}

/** What deliverEvent resolves with. */
export interface Delivery {
  /** The envelope id sent. */
  envelopeId: string;
  /** The event_id in the payload. */
  eventId: string;
  /** The client's ack. */
  ack: AckRecord;
}
