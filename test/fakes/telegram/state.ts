import type { BotCommand, Chat, Message, User } from 'grammy/types';
import type { Clock } from '../../../src/core/clock.js';
import { badRequest } from './errors.js';
import { FileStore } from './files.js';
import type { BotMessage, PressRecord, WebhookRecord } from './types.js';
import { UpdateQueue } from './updates.js';

/** A message the fake holds; `sent` is present for messages the bot sent. */
export interface StoredMessage {
  /** The Bot API object, as last returned or delivered. */
  message: Message;
  /** The bot's record, for its own messages. */
  sent?: BotMessage;
  /** True after deleteMessage. */
  deleted: boolean;
}

/** One chat and its messages. */
export interface ChatRecord {
  /** The Bot API chat object. */
  chat: Chat;
  /** message_id the next message gets. */
  nextMessageId: number;
  /** Messages by message_id, in arrival order. */
  messages: Map<number, StoredMessage>;
}

/** Everything the fake Bot API remembers: bot identity, chats, messages, files, updates, commands, webhook. */
export class TelegramState {
  /** The bot's own user (getMe). */
  readonly bot: User & { is_bot: true };
  /** Time source. */
  readonly clock: Clock;
  /** Registered and uploaded files. */
  readonly files = new FileStore();
  /** Pending updates and long polls. */
  readonly updates: UpdateQueue;
  /** Bot commands by scope+language key. */
  readonly commands = new Map<string, BotCommand[]>();
  /** The webhook, while one is set. */
  webhook: WebhookRecord | undefined;
  /** Button presses delivered, by callback_query id. */
  readonly presses = new Map<string, PressRecord>();
  private readonly chats = new Map<number, ChatRecord>();
  private readonly listeners = new Set<() => void>();

  constructor(params: { bot: User & { is_bot: true }; clock: Clock; firstUpdateId: number }) {
    this.bot = params.bot;
    this.clock = params.clock;
    this.updates = new UpdateQueue({ clock: params.clock, firstUpdateId: params.firstUpdateId, onChange: () => this.changed() });
  }

  /** Tells waiters something changed. */
  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Calls `listener` after every change until the returned function is called. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Unix time in seconds, for message dates. */
  unixNow(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /** Registers a chat (or returns the known one; its type must match). */
  ensureChat(params: { chat: Chat }): ChatRecord {
    const known = this.chats.get(params.chat.id);
    if (known) {
      if (known.chat.type !== params.chat.type) {
        throw new Error(`FakeTelegram: chat ${params.chat.id} is a ${known.chat.type}, not a ${params.chat.type}`);
      }
      return known;
    }
    const record: ChatRecord = { chat: params.chat, nextMessageId: 1, messages: new Map() };
    this.chats.set(params.chat.id, record);
    return record;
  }

  /** The chat a known id refers to, if any. */
  findChat(params: { chatId: number }): ChatRecord | undefined {
    return this.chats.get(params.chatId);
  }

  /** Resolves a chat_id parameter (number, numeric string or @username); 400 "chat not found" otherwise. */
  chatFor(params: { chatId: unknown }): ChatRecord {
    const raw = params.chatId;
    if (raw === undefined || raw === null || raw === '') throw badRequest('chat_id is empty');
    if (typeof raw === 'string' && raw.startsWith('@')) {
      const name = raw.slice(1).toLowerCase();
      for (const record of this.chats.values()) {
        if (record.chat.username?.toLowerCase() === name) return record;
      }
      throw badRequest('chat not found');
    }
    const id = typeof raw === 'number' ? raw : Number(raw);
    if (!Number.isInteger(id)) throw badRequest('chat not found');
    const record = this.chats.get(id);
    if (!record) throw badRequest('chat not found');
    return record;
  }

  /** Takes the next message_id of a chat. */
  nextMessageId(params: { chat: ChatRecord }): number {
    const id = params.chat.nextMessageId;
    params.chat.nextMessageId += 1;
    return id;
  }

  /** Stores a message (new or replacing the same message_id) and notifies waiters. */
  store(params: { chat: ChatRecord; message: Message; sent?: BotMessage }): StoredMessage {
    const stored: StoredMessage = { message: params.message, deleted: false };
    if (params.sent) stored.sent = params.sent;
    params.chat.messages.set(params.message.message_id, stored);
    this.changed();
    return stored;
  }

  /** A live (not deleted) message of a chat. */
  message(params: { chat: ChatRecord; messageId: number }): StoredMessage | undefined {
    const stored = params.chat.messages.get(params.messageId);
    return stored && !stored.deleted ? stored : undefined;
  }

  /** Snapshots of the bot's messages in a chat, oldest first, deleted ones included (flagged). */
  botMessages(params: { chatId: number }): BotMessage[] {
    const record = this.chats.get(params.chatId);
    if (!record) return [];
    return [...record.messages.values()].flatMap((m) =>
      m.sent ? [{ ...m.sent, entities: [...m.sent.entities], history: [...m.sent.history] }] : [],
    );
  }
}
