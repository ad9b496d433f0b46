import type { Logger } from 'pino';
import type { AdapterStartParams, ChatRef, ChoiceAnswer, Sender } from '../../src/core/adapter.js';
import type { BotIdentity } from './inbound.js';
import type { TelegramOutbound } from './outbound.js';
import type { TelegramCallbackQuery } from './update-schema.js';

/** The chat a pressed button's message is in; undefined for chat types the adapter does not talk in. */
function chatOfPress(params: { message: NonNullable<TelegramCallbackQuery['message']> }): ChatRef | undefined {
  const { message } = params;
  const id = String(message.chat.id);
  if (message.chat.type === 'private') return { id, kind: 'dm' };
  if (message.chat.type !== 'group' && message.chat.type !== 'supergroup') return undefined;
  const thread = message.is_topic_message === true && message.message_thread_id !== undefined ? { threadId: String(message.message_thread_id) } : {};
  return { id, kind: 'group', ...thread };
}

/**
 * Handles one callback query: a press of a button on one of the bot's messages goes to `choose` (whoever pressed:
 * the gateway decides who may), then the query is answered with the answer's notice and, when the answer retires the
 * question, the message's keyboard is removed. A query without a message (inline mode) or data (a game), or on a
 * message that is not the bot's, is only answered. Never a turn, never a MessageEvent. Failures are logged, not thrown.
 */
export async function handlePress(params: {
  query: TelegramCallbackQuery;
  bot: BotIdentity;
  outbound: TelegramOutbound;
  choose: AdapterStartParams['choose'];
  logger: Logger;
}): Promise<void> {
  const { query, logger } = params;
  const answer = await pressAnswer(params).catch((error: unknown): ChoiceAnswer => {
    logger.warn({ err: error, queryId: query.id }, 'a Telegram button press could not be handled');
    return {};
  });
  try {
    await params.outbound.answerPress({ queryId: query.id, ...(answer.notice !== undefined ? { notice: answer.notice } : {}) });
  } catch (error) {
    // A query older than Telegram's answer window (e.g. it waited through a restart): the press was handled anyway.
    logger.warn({ err: error, queryId: query.id }, 'could not answer a Telegram button press');
  }
  const message = query.message;
  if (answer.retire !== true || message === undefined) return;
  try {
    await params.outbound.removeButtons({ chatId: String(message.chat.id), messageId: String(message.message_id) });
  } catch (error) {
    logger.warn({ err: error, messageId: message.message_id }, 'could not remove the buttons of an answered Telegram question');
  }
}

/** What `choose` answers for a press the gateway should see; an empty answer for the others. */
async function pressAnswer(params: { query: TelegramCallbackQuery; bot: BotIdentity; choose: AdapterStartParams['choose']; logger: Logger }): Promise<ChoiceAnswer> {
  const { query, logger } = params;
  const message = query.message;
  const data = query.data;
  if (message === undefined || data === undefined || data === '') {
    logger.debug({ queryId: query.id }, 'Telegram callback without a message or data answered and skipped');
    return {};
  }
  if (message.from !== undefined && message.from.id !== params.bot.id) {
    logger.warn({ queryId: query.id }, 'Telegram callback on a message that is not the bot\'s answered and skipped');
    return {};
  }
  const chat = chatOfPress({ message });
  if (chat === undefined) {
    logger.debug({ queryId: query.id, chatType: message.chat.type }, 'Telegram callback from a chat type the adapter does not talk in skipped');
    return {};
  }
  const from = query.from;
  const name = [from.first_name, from.last_name].filter(Boolean).join(' ');
  const sender: Sender = {
    id: String(from.id),
    ...(name !== '' ? { name } : {}),
    ...(from.username ? { username: from.username } : {}),
    isBot: from.is_bot,
  };
  return params.choose({ platform: 'telegram', chat, sender, messageId: String(message.message_id), choiceId: data });
}
