import type { BotMessage } from './types.js';
import { badRequest } from './errors.js';
import { read, type Params } from './params.js';
import type { ChatRecord, StoredMessage, TelegramState } from './state.js';

/** The bot's own message an edit method names by chat_id and message_id; refused like Telegram when there is none to edit. */
export function editTarget(params: { state: TelegramState; params: Params }): { chat: ChatRecord; stored: StoredMessage; sent: BotMessage } {
  if (params.params['inline_message_id'] !== undefined) {
    throw badRequest('FakeTelegram does not implement inline_message_id; edit with chat_id and message_id');
  }
  const chat = params.state.chatFor({ chatId: params.params['chat_id'] });
  const messageId = read(params.params).int('message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const stored = params.state.message({ chat, messageId });
  if (!stored) throw badRequest('message to edit not found');
  if (!stored.sent) throw badRequest("message can't be edited");
  return { chat, stored, sent: stored.sent };
}
