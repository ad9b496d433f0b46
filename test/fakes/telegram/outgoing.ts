import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { badRequest } from './errors.js';
import { checkInlineKeyboard } from './keyboard.js';
import { read, type Params } from './params.js';
import type { ChatRecord, TelegramState } from './state.js';
import type { FormattedText } from './text.js';
import type { BotMessage, MessageKind, SentFile } from './types.js';

/** Content specific to one kind of message (text, or the media field plus caption). */
export type MessageContent = Partial<Pick<Message, 'text' | 'entities' | 'caption' | 'caption_entities' | 'photo' | 'document' | 'voice' | 'audio'>>;

/** Finds the message a send replies to (reply_parameters or legacy reply_to_message_id); 400 when it does not exist. */
export function resolveReply(params: { state: TelegramState; chat: ChatRecord; params: Params }): Message | undefined {
  const replyParameters = read(params.params).object('reply_parameters');
  const fields = replyParameters ?? params.params;
  const messageId = read(fields).int(replyParameters ? 'message_id' : 'reply_to_message_id');
  if (messageId === undefined) return undefined;
  const target = replyParameters?.['chat_id'] !== undefined
    ? params.state.chatFor({ chatId: replyParameters['chat_id'] })
    : params.chat;
  const stored = params.state.message({ chat: target, messageId });
  if (stored) return withoutNestedReply(stored.message);
  if (read(fields).flag('allow_sending_without_reply')) return undefined;
  throw badRequest('message to be replied not found');
}

/** Builds, stores and returns the bot's new message; the message_id is taken only now, after validation passed. */
export function sendOutgoing(params: {
  state: TelegramState;
  chat: ChatRecord;
  params: Params;
  replyTo: Message | undefined;
  kind: MessageKind;
  rawText: string;
  formatted: FormattedText;
  content: MessageContent;
  file?: SentFile;
}): Message {
  const { state, chat } = params;
  checkInlineKeyboard({ markup: params.params['reply_markup'] });
  const messageId = state.nextMessageId({ chat });
  const message = {
    message_id: messageId,
    from: state.bot,
    chat: chat.chat,
    date: state.unixNow(),
    ...params.content,
  } as Message;
  const threadId = read(params.params).int('message_thread_id');
  if (threadId !== undefined && chat.chat.type === 'supergroup' && chat.chat.is_forum) {
    message.message_thread_id = threadId;
    message.is_topic_message = true;
  }
  if (params.replyTo) message.reply_to_message = params.replyTo as Message & { reply_to_message: undefined };
  const markup = params.params['reply_markup'];
  if (isInlineKeyboard(markup)) message.reply_markup = markup;
  const sent: BotMessage = {
    message_id: messageId,
    chat_id: chat.chat.id,
    kind: params.kind,
    text: params.rawText,
    shown: params.formatted.shown,
    entities: params.formatted.entities,
    edits: 0,
    history: [params.rawText],
    deleted: false,
    sent_at: state.clock.now(),
  };
  const parseMode = read(params.params).string('parse_mode');
  if (parseMode !== undefined && parseMode !== '') sent.parse_mode = parseMode;
  if (params.file) sent.file = params.file;
  if (params.replyTo) sent.reply_to_message_id = params.replyTo.message_id;
  if (threadId !== undefined) sent.message_thread_id = threadId;
  if (markup !== undefined) sent.reply_markup = markup;
  state.store({ chat, message, sent });
  return message;
}

/** True for an inline keyboard, the only reply_markup Telegram echoes in the returned Message. */
export function isInlineKeyboard(value: unknown): value is InlineKeyboardMarkup {
  return typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)['inline_keyboard']);
}

function withoutNestedReply(message: Message): Message & { reply_to_message: undefined } {
  const copy = { ...message };
  delete copy.reply_to_message;
  return copy as Message & { reply_to_message: undefined };
}
