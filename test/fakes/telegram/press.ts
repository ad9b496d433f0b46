import type { CallbackQuery, Update } from 'grammy/types';
import { keyboardButtons } from './keyboard.js';
import type { TelegramState } from './state.js';
import type { PressOptions } from './types.js';

/**
 * Builds the callback_query a user's press of a button makes, as Telegram delivers it (the message as it is now,
 * the presser as `from`, the button's callback_data), and records it so the bot's answer can be checked. Throws
 * when the message or button does not exist (a test mistake; a user cannot press what is not there).
 */
export function buildPress(params: { state: TelegramState; options: PressOptions; queryId: string }): Omit<Update, 'update_id'> {
  const { state, options } = params;
  const chat = state.findChat({ chatId: options.chatId });
  const stored = chat ? state.message({ chat, messageId: options.messageId }) : undefined;
  if (!chat || !stored) throw new Error(`FakeTelegram.press: no message ${options.messageId} in chat ${options.chatId}`);
  const buttons = keyboardButtons({ markup: stored.message.reply_markup }).flat();
  const button = options.data !== undefined
    ? buttons.find((b) => b.data === options.data)
    : options.label !== undefined ? buttons.find((b) => b.text === options.label) : buttons[0];
  if (button === undefined) throw new Error(`FakeTelegram.press: message ${options.messageId} shows no such button (it has ${buttons.map((b) => b.text).join(', ') || 'none'})`);
  const from = options.from;
  const query: CallbackQuery = {
    id: params.queryId,
    from: {
      id: from.id,
      is_bot: from.is_bot ?? false,
      first_name: from.first_name,
      ...(from.last_name !== undefined ? { last_name: from.last_name } : {}),
      ...(from.username !== undefined ? { username: from.username } : {}),
    },
    message: stored.message,
    chat_instance: `ci${Math.abs(options.chatId)}`,
    data: button.data,
  };
  state.presses.set(query.id, { query });
  state.changed();
  return { callback_query: query };
}
