import type { CallbackQuery, Message, MessageEntity } from 'grammy/types';
import type { Clock } from '../../../src/core/clock.js';

/** How to build a FakeTelegram. */
export interface FakeTelegramOptions {
  /** The only bot token the fake accepts; other tokens get 401. */
  token: string;
  /** getMe username (default hermes_test_bot). */
  botUsername?: string;
  /** getMe id (default 4242). */
  botId?: number;
  /** getMe first_name (default "Hermes Test"). */
  botName?: string;
  /** Time source for call timestamps, message dates and long-poll timeouts (default: the system clock). */
  clock?: Clock;
  /** update_id of the first update (default 1). */
  firstUpdateId?: number;
}

/** A file registered with addFile, usable as photo/document/voice/audio in pushMessage and with getFile. */
export interface FileHandle {
  /** Telegram file_id. */
  file_id: string;
  /** Telegram file_unique_id. */
  file_unique_id: string;
  /** Size in bytes. */
  file_size: number;
}

/** Contents of a file a test registers. */
export interface AddFileOptions {
  /** The bytes (a string is taken as UTF-8). */
  bytes: Buffer | Uint8Array | string;
  /** Original file name (shown as document file_name; its extension picks the MIME type). */
  fileName?: string;
  /** MIME type, when the name does not tell. */
  mimeType?: string;
  /** Photo size; read from the image header when omitted. */
  width?: number;
  /** Photo size; read from the image header when omitted. */
  height?: number;
  /** Seconds, for voice and audio (default 1). */
  duration?: number;
}

/** The chat a pushed message arrives in. */
export interface PushChat {
  /** Chat id (negative for groups by Telegram convention). */
  id: number;
  /** Chat type. */
  type: 'private' | 'group' | 'supergroup';
  /** Group title (default "Chat <id>"). */
  title?: string;
  /** True for a supergroup with topics. */
  is_forum?: boolean;
  /** Public username, if any. */
  username?: string;
}

/** The user a pushed message comes from. */
export interface PushUser {
  /** User id. */
  id: number;
  /** Username without @. */
  username?: string;
  /** First name. */
  first_name: string;
  /** Last name. */
  last_name?: string;
  /** True for bots. */
  is_bot?: boolean;
  /** IETF language tag. */
  language_code?: string;
}

/** A message a user sends to the bot, delivered through getUpdates. */
export interface PushMessageOptions {
  /** Where it is sent. */
  chat: PushChat;
  /** Who sends it. */
  from: PushUser;
  /** Message text. */
  text?: string;
  /** Caption of a media message. */
  caption?: string;
  /** Entities of text/caption; by default bot_command and mention entities are detected like Telegram does. */
  entities?: MessageEntity[];
  /** A photo registered with addFile. */
  photo?: FileHandle;
  /** A document registered with addFile. */
  document?: FileHandle;
  /** A voice note registered with addFile. */
  voice?: FileHandle;
  /** An audio file registered with addFile. */
  audio?: FileHandle;
  /** The message replied to: a message_id in the same chat (user's or bot's) or a full Message. */
  reply_to_message?: number | Message;
  /** Forum topic id. */
  message_thread_id?: number;
  /** Album id shared by messages sent together. */
  media_group_id?: string;
  /** Deliver as edited_message: changes an earlier message (message_id, default the sender's latest in the chat). */
  edit?: boolean;
  /** With edit: which message is edited. */
  message_id?: number;
}

/** Kinds of message the bot can send through the fake. */
export type MessageKind = 'text' | 'photo' | 'document' | 'voice' | 'audio';

/** A file the bot sent. */
export interface SentFile {
  /** file_id assigned (or reused). */
  file_id: string;
  /** Name the bot uploaded it with. */
  file_name?: string;
  /** Size in bytes. */
  size: number;
  /** The bytes received. */
  bytes: Buffer;
  /** MIME type guessed from the name. */
  mime_type?: string;
}

/** A message the bot sent, as the fake recorded it. */
export interface BotMessage {
  /** Telegram message_id. */
  message_id: number;
  /** Chat it was sent to. */
  chat_id: number;
  /** Text message or the kind of media. */
  kind: MessageKind;
  /** Current text (or caption) exactly as the bot sent it, markup included; '' when none. */
  text: string;
  /** Current parse_mode, if any. */
  parse_mode?: string;
  /** Current text as Telegram shows it (markup parsed away). */
  shown: string;
  /** Current entities from the parsed markup. */
  entities: MessageEntity[];
  /** The attached file, for media. */
  file?: SentFile;
  /** Successful edits so far. */
  edits: number;
  /** Every text the message has had, first to current (length is edits + 1). */
  history: string[];
  /** Message it replies to. */
  reply_to_message_id?: number;
  /** Forum topic it was sent to. */
  message_thread_id?: number;
  /** Current reply_markup as sent. */
  reply_markup?: unknown;
  /** editMessageReplyMarkup calls that changed it. */
  markup_edits?: number;
  /** True once deleteMessage removed it. */
  deleted: boolean;
  /** Clock time (ms) it was sent. */
  sent_at: number;
  /** Clock time (ms) of the last edit. */
  edited_at?: number;
}

/** One API call the fake received. */
export interface CallRecord {
  /** Method name as the client wrote it. */
  method: string;
  /** Parameters from JSON, form fields or the query string (object fields decoded from JSON). */
  params: Record<string, unknown>;
  /** Files uploaded with the call. */
  uploads: { field: string; fileName: string; size: number }[];
  /** Clock time (ms) the request arrived. */
  at: number;
  /** Clock time (ms) the answer was sent (undefined while a long poll is open). */
  answeredAt?: number;
  /** HTTP status answered; 0 when the connection was dropped (failNext drop, or the client went away); undefined while open. */
  status?: number;
}

/** Makes the next matching calls fail with an error answer. */
export interface FailWithStatus {
  /** Method name (case-insensitive). */
  method: string;
  /** HTTP status / error_code, e.g. 429, 409, 400, 500. */
  status: number;
  /** For 429: parameters.retry_after in seconds (default 1). */
  retryAfter?: number;
  /** Override Telegram's usual description for the status. */
  description?: string;
  /** How many calls fail (default 1). */
  count?: number;
}

/** Makes the next matching calls lose their connection: before the method runs, or after it ran (the answer is lost). */
export interface FailWithDrop {
  /** Method name (case-insensitive). */
  method: string;
  /** 'before': nothing happens; 'after': the method takes effect but the client sees a network error. */
  drop: 'before' | 'after';
  /** How many calls fail (default 1). */
  count?: number;
}

/** A failure injected with failNext. */
export type FailRule = FailWithStatus | FailWithDrop;

/** The webhook setWebhook recorded. */
export interface WebhookRecord {
  /** HTTPS URL. */
  url: string;
  /** secret_token Telegram would send as X-Telegram-Bot-Api-Secret-Token. */
  secretToken?: string;
  /** max_connections, if given. */
  maxConnections?: number;
}

/** A button press the fake delivered (a callback_query), and how the bot answered it. */
export interface PressRecord {
  /** The callback_query as delivered. */
  query: CallbackQuery;
  /** The bot's answerCallbackQuery, once made. */
  answer?: { at: number; text?: string; showAlert: boolean };
}

/** A press of a button under one of the bot's messages. */
export interface PressOptions {
  /** The chat the message is in. */
  chatId: number;
  /** The bot's message carrying the button. */
  messageId: number;
  /** Who presses. */
  from: PushUser;
  /** The pressed button's callback_data; by default the first button's with this text (`label`), else the first button's. */
  data?: string;
  /** The label of the button to press. */
  label?: string;
}
