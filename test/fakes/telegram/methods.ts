import type { MethodHandler } from './context.js';
import * as bot from './methods-bot.js';
import * as callbacks from './methods-callbacks.js';
import * as media from './methods-media.js';
import * as messages from './methods-messages.js';

const ALL: Record<string, MethodHandler> = {
  getMe: bot.getMe,
  getUpdates: bot.getUpdates,
  setWebhook: bot.setWebhook,
  deleteWebhook: bot.deleteWebhook,
  getWebhookInfo: bot.getWebhookInfo,
  sendChatAction: bot.sendChatAction,
  getFile: bot.getFile,
  setMyCommands: bot.setMyCommands,
  getMyCommands: bot.getMyCommands,
  deleteMyCommands: bot.deleteMyCommands,
  sendMessage: messages.sendMessage,
  editMessageText: messages.editMessageText,
  deleteMessage: messages.deleteMessage,
  answerCallbackQuery: callbacks.answerCallbackQuery,
  editMessageReplyMarkup: callbacks.editMessageReplyMarkup,
  sendPhoto: media.sendPhoto,
  sendDocument: media.sendDocument,
  sendVoice: media.sendVoice,
  sendAudio: media.sendAudio,
};

const BY_LOWER = new Map(Object.entries(ALL).map(([name, handler]) => [name.toLowerCase(), handler]));

/** The handler for a Bot API method name (case-insensitive, like Telegram), or undefined when the fake lacks it. */
export function methodHandler(params: { method: string }): MethodHandler | undefined {
  return BY_LOWER.get(params.method.toLowerCase());
}
