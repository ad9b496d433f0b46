import type { Message } from 'grammy/types';
import type { MethodContext, MethodHandler } from './context.js';
import { editTarget } from './edit-target.js';
import { badRequest } from './errors.js';
import { checkInlineKeyboard } from './keyboard.js';
import { isInlineKeyboard } from './outgoing.js';
import { read } from './params.js';

const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

/** Telegram's limit on a callback answer's text, in characters. */
const MAX_ANSWER_TEXT = 200;

/** answerCallbackQuery: each press is answered once; an unknown or already answered query id is refused like Telegram does. */
export const answerCallbackQuery: MethodHandler = ({ state, params }: MethodContext): true => {
  const id = read(params).string('callback_query_id') ?? '';
  const press = state.presses.get(id);
  if (press === undefined || press.answer !== undefined) throw badRequest('query is too old and response timeout expired or query ID is invalid');
  const text = read(params).string('text');
  if (text !== undefined && text.length > MAX_ANSWER_TEXT) throw badRequest('MESSAGE_TOO_LONG');
  press.answer = { at: state.clock.now(), ...(text !== undefined ? { text } : {}), showAlert: read(params).flag('show_alert') };
  state.changed();
  return true;
};

/** editMessageReplyMarkup: replaces (or, without reply_markup, removes) the inline keyboard of one of the bot's messages. */
export const editMessageReplyMarkup: MethodHandler = ({ state, params }: MethodContext): Message => {
  const { chat, stored, sent } = editTarget({ state, params });
  const markup = params['reply_markup'];
  checkInlineKeyboard({ markup });
  const next = isInlineKeyboard(markup) && markup.inline_keyboard.length > 0 ? markup : undefined;
  if (JSON.stringify(stored.message.reply_markup ?? null) === JSON.stringify(next ?? null)) throw badRequest(NOT_MODIFIED);
  const message: Message = { ...stored.message, edit_date: state.unixNow() };
  if (next !== undefined) {
    message.reply_markup = next;
    sent.reply_markup = next;
  } else {
    delete message.reply_markup;
    delete sent.reply_markup;
  }
  sent.markup_edits = (sent.markup_edits ?? 0) + 1;
  state.store({ chat, message, sent });
  return message;
};
