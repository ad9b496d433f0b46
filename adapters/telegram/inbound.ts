import type { ChatRef, MediaKind, MessageEvent, Sender } from '../../src/core/adapter.js';
import type { TelegramMessage as Message, TelegramUpdate as Update } from './update-schema.js';
import { mayContinue } from '../kit/burst.js';

/** Telegram's text limit: a client splits a longer paste into parts of at most this many characters. */
const textLimit = 4096;

/** Who the bot is (from getMe). */
export interface BotIdentity {
  readonly id: number;
  readonly username: string;
}

/** How the adapter treats group chats and edits. */
export interface InboundPolicy {
  /** Group chat ids answered without a mention. */
  readonly freeResponseChats: readonly string[];
  readonly editedMessages: 'ignore' | 'new_turn';
}

/** A file attached to a Telegram message, not yet downloaded. */
export interface FileRef {
  readonly fileId: string;
  readonly fileUniqueId: string;
  readonly kind: MediaKind;
  readonly fileName?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/** What one update means to the gateway. */
export type InboundRead =
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'message'; readonly event: Omit<MessageEvent, 'media'>; readonly files: readonly FileRef[] };


/** Turns one update (checked by update-schema.ts) into a gateway message (files still to download), or says why it is skipped. */
export function readUpdate(params: { update: Update; bot: BotIdentity; policy: InboundPolicy; now: number }): InboundRead {
  const { update, bot, policy } = params;
  const edited = update.message === undefined && update.edited_message !== undefined;
  const message = update.message ?? update.edited_message;
  if (message === undefined) return { kind: 'skip', reason: 'not a message' };
  if (edited && policy.editedMessages === 'ignore') return { kind: 'skip', reason: 'edited message (edited_messages: ignore)' };
  const chat = chatOf({ message });
  if (chat === undefined) return { kind: 'skip', reason: `chat type ${message.chat.type}` };
  if (message.from === undefined) return { kind: 'skip', reason: 'no sender' };
  const addressed = addressedToBot({ message, bot });
  if (chat.kind !== 'dm' && !addressed && !policy.freeResponseChats.includes(String(message.chat.id))) {
    return { kind: 'skip', reason: 'group message not addressed to the bot' };
  }
  const raw = message.text ?? message.caption ?? '';
  const files = filesOf({ message });
  if (raw.trim() === '' && files.length === 0) return { kind: 'skip', reason: 'nothing the agent can read (sticker, service message, ...)' };
  // In a forum topic every message "replies" to the topic's first message; that is not a real reply.
  const reply = message.reply_to_message?.message_id === message.message_thread_id ? undefined : message.reply_to_message;
  const sender: Sender = {
    id: String(message.from.id),
    name: [message.from.first_name, message.from.last_name].filter(Boolean).join(' ') || undefined,
    ...(message.from.username ? { username: message.from.username } : {}),
    isBot: message.from.is_bot,
  };
  const event: Omit<MessageEvent, 'media'> = {
    platform: 'telegram',
    messageId: edited ? `${message.chat.id}:${message.message_id}:e${message.edit_date ?? params.now}` : `${message.chat.id}:${message.message_id}`,
    chat,
    sender,
    text: stripMention({ text: raw, bot }),
    ...(reply ? { replyToId: `${message.chat.id}:${reply.message_id}` } : {}),
    mentioned: chat.kind === 'dm' || addressed,
    receivedAt: params.now,
    // More may follow at once: album parts, a long paste the client split. The gateway then waits
    // platforms.telegram.merge_window of quiet and answers them as one turn; a lone short message goes at once.
    continues: mayContinue({ text: raw, limit: textLimit, grouped: message.media_group_id !== undefined }),
    raw: update,
  };
  return { kind: 'message', event, files };
}

function chatOf(params: { message: Message }): ChatRef | undefined {
  const { chat } = params.message;
  const id = String(chat.id);
  const threadId = params.message.is_topic_message && params.message.message_thread_id !== undefined ? String(params.message.message_thread_id) : undefined;
  const withThread = threadId !== undefined ? { threadId } : {};
  if (chat.type === 'private') return { id, kind: 'dm' };
  if (chat.type === 'group' || chat.type === 'supergroup') return { id, kind: 'group', ...withThread };
  return undefined;
}

/** A mention of the bot, a reply to one of its messages, or a command: the bot was spoken to. */
function addressedToBot(params: { message: Message; bot: BotIdentity }): boolean {
  const { message, bot } = params;
  const reply = message.reply_to_message;
  if (reply !== undefined && reply.message_id !== message.message_thread_id && reply.from?.id === bot.id) return true;
  const text = message.text ?? message.caption ?? '';
  const entities = message.entities ?? message.caption_entities ?? [];
  const handle = `@${bot.username}`.toLowerCase();
  return entities.some((entity) => {
    const part = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === 'mention') return part === handle;
    if (entity.type === 'text_mention') return entity.user?.id === bot.id;
    if (entity.type === 'bot_command') return !part.includes('@') || part.endsWith(handle);
    return false;
  });
}

/** Removes "@botname" from the text (the mention is kept as the `mentioned` flag). */
function stripMention(params: { text: string; bot: BotIdentity }): string {
  const pattern = new RegExp(`(^|\\s)@${params.bot.username}\\b`, 'gi');
  const commandSuffix = new RegExp(`^(/[A-Za-z0-9_]+)@${params.bot.username}\\b`, 'i');
  return params.text.replace(commandSuffix, '$1').replace(pattern, '$1').replace(/[ \t]{2,}/g, ' ').trim();
}

function filesOf(params: { message: Message }): FileRef[] {
  const { message } = params;
  const files: FileRef[] = [];
  const largestPhoto = (message.photo ?? []).reduce<NonNullable<Message['photo']>[number] | undefined>(
    (best, p) => (best === undefined || (p.file_size ?? 0) > (best.file_size ?? 0) ? p : best),
    undefined,
  );
  if (largestPhoto) files.push({ fileId: largestPhoto.file_id, fileUniqueId: largestPhoto.file_unique_id, kind: 'image', mimeType: 'image/jpeg', ...size(largestPhoto.file_size) });
  if (message.document) {
    const d = message.document;
    files.push({ fileId: d.file_id, fileUniqueId: d.file_unique_id, kind: 'document', ...opt('fileName', d.file_name), ...opt('mimeType', d.mime_type), ...size(d.file_size) });
  }
  if (message.voice) {
    const v = message.voice;
    files.push({ fileId: v.file_id, fileUniqueId: v.file_unique_id, kind: 'voice', ...opt('mimeType', v.mime_type ?? 'audio/ogg'), ...size(v.file_size) });
  }
  if (message.audio) {
    const a = message.audio;
    files.push({ fileId: a.file_id, fileUniqueId: a.file_unique_id, kind: 'audio', ...opt('fileName', a.file_name), ...opt('mimeType', a.mime_type), ...size(a.file_size) });
  }
  if (message.video) {
    const v = message.video;
    files.push({ fileId: v.file_id, fileUniqueId: v.file_unique_id, kind: 'video', ...opt('fileName', v.file_name), ...opt('mimeType', v.mime_type), ...size(v.file_size) });
  }
  return files;
}

function opt<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function size(value: number | undefined): { size?: number } {
  return value === undefined ? {} : { size: value };
}
