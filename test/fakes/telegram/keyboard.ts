import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import { badRequest } from './errors.js';

/** Telegram's limit on a button's callback_data, in bytes. */
const MAX_CALLBACK_DATA_BYTES = 64;

/**
 * Checks a reply_markup inline keyboard the way the Bot API does: an array of rows of buttons, each with a text and
 * exactly one action; callback_data 1-64 bytes ("BUTTON_DATA_INVALID" otherwise). Other reply_markup kinds pass.
 */
export function checkInlineKeyboard(params: { markup: unknown }): void {
  const { markup } = params;
  if (typeof markup !== 'object' || markup === null || !('inline_keyboard' in markup)) return;
  const rows = (markup as { inline_keyboard: unknown }).inline_keyboard;
  if (!Array.isArray(rows)) throw badRequest("can't parse inline keyboard button: InlineKeyboardMarkup must be an Array of Arrays");
  for (const row of rows) {
    if (!Array.isArray(row)) throw badRequest("can't parse inline keyboard button: InlineKeyboardMarkup must be an Array of Arrays");
    for (const button of row) checkButton({ button });
  }
}

function checkButton(params: { button: unknown }): void {
  const { button } = params;
  if (typeof button !== 'object' || button === null) throw badRequest("can't parse inline keyboard button: InlineKeyboardButton must be an Object");
  const fields = button as Record<string, unknown>;
  if (typeof fields['text'] !== 'string' || fields['text'] === '') throw badRequest('text buttons are unallowed in the inline keyboard');
  const actions = ['callback_data', 'url', 'switch_inline_query', 'switch_inline_query_current_chat', 'web_app', 'login_url', 'pay', 'copy_text'].filter((key) => fields[key] !== undefined);
  if (actions.length !== 1) throw badRequest('text buttons are unallowed in the inline keyboard');
  const data = fields['callback_data'];
  if (data === undefined) return;
  if (typeof data !== 'string' || data === '' || Buffer.byteLength(data, 'utf8') > MAX_CALLBACK_DATA_BYTES) throw badRequest('BUTTON_DATA_INVALID');
}

/** The callback buttons of a keyboard, row by row (what a user sees and can press). */
export function keyboardButtons(params: { markup: InlineKeyboardMarkup | undefined }): { text: string; data: string }[][] {
  const rows = params.markup?.inline_keyboard ?? [];
  return rows.map((row: InlineKeyboardButton[]) => row.map((button) => ({ text: button.text, data: 'callback_data' in button ? button.callback_data : '' })));
}
