import type { Message } from 'grammy/types';
import type { MethodContext, MethodHandler } from './context.js';
import { editTarget } from './edit-target.js';
import { badRequest } from './errors.js';
import { checkInlineKeyboard } from './keyboard.js';
import { read } from './params.js';
import { isInlineKeyboard, resolveReply, sendOutgoing } from './outgoing.js';
import { formatText } from './text.js';

const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

/** sendMessage: validates text and markup like Telegram and records the bot's message. */
export const sendMessage: MethodHandler = ({ state, params }: MethodContext): Message => {
  const chat = state.chatFor({ chatId: params['chat_id'] });
  const text = read(params).string('text') ?? '';
  if (text === '') throw badRequest('message text is empty');
  const replyTo = resolveReply({ state, chat, params });
  const formatted = formatText({
    text,
    parseMode: read(params).string('parse_mode'),
    entities: read(params).array('entities'),
    kind: 'text',
  });
  const content = formatted.entities.length > 0
    ? { text: formatted.shown, entities: formatted.entities }
    : { text: formatted.shown };
  return sendOutgoing({ state, chat, params, replyTo, kind: 'text', rawText: text, formatted, content });
};

/** editMessageText: edits one of the bot's text messages in place; refuses unchanged content like Telegram. */
export const editMessageText: MethodHandler = ({ state, params }: MethodContext): Message => {
  const { chat, stored, sent } = editTarget({ state, params });
  if (sent.kind !== 'text') throw badRequest('there is no text in the message to edit');
  const text = read(params).string('text') ?? '';
  if (text === '') throw badRequest('message text is empty');
  const formatted = formatText({
    text,
    parseMode: read(params).string('parse_mode'),
    entities: read(params).array('entities'),
    kind: 'text',
  });
  const markup = params['reply_markup'];
  checkInlineKeyboard({ markup });
  const current = stored.message;
  const sameText = current.text === formatted.shown && sameJson(current.entities ?? [], formatted.entities);
  const sameMarkup = sameJson(current.reply_markup ?? null, isInlineKeyboard(markup) ? markup : null);
  if (sameText && sameMarkup) throw badRequest(NOT_MODIFIED);
  const message: Message = { ...current, text: formatted.shown, edit_date: state.unixNow() };
  if (formatted.entities.length > 0) message.entities = formatted.entities;
  else delete message.entities;
  if (isInlineKeyboard(markup)) message.reply_markup = markup;
  else delete message.reply_markup;
  sent.text = text;
  sent.shown = formatted.shown;
  sent.entities = formatted.entities;
  const parseMode = read(params).string('parse_mode');
  if (parseMode !== undefined && parseMode !== '') sent.parse_mode = parseMode;
  else delete sent.parse_mode;
  if (markup !== undefined) sent.reply_markup = markup;
  else delete sent.reply_markup;
  sent.edits += 1;
  sent.history.push(text);
  sent.edited_at = state.clock.now();
  state.store({ chat, message, sent });
  return message;
};

/** deleteMessage: removes a message (the bot's or a user's) from the chat. */
export const deleteMessage: MethodHandler = ({ state, params }: MethodContext): true => {
  const chat = state.chatFor({ chatId: params['chat_id'] });
  const messageId = read(params).int('message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const stored = state.message({ chat, messageId });
  if (!stored) throw badRequest('message to delete not found');
  stored.deleted = true;
  if (stored.sent) stored.sent.deleted = true;
  state.changed();
  return true;
};

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
