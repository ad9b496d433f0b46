import type { Logger } from 'pino';
import type { InterruptedSend } from '../../src/core/adapter.js';
import type { TelegramOutbound } from './outbound.js';

/** Message ids after the last known one that are tried: the reply's message is normally the very next one or two. */
const WINDOW = 12;

/** Unknown ids in a row after which the rest of the window is taken to be unused (ids are sequential per chat). */
const MISSING_IN_A_ROW = 3;

/** The message number in a gateway message id (`chat:message` or `chat:message:eEDIT`) or a bare Telegram id. */
function messageNumber(params: { id: string | undefined }): number | undefined {
  const part = params.id?.split(':').filter((p) => /^\d+$/.test(p)).at(-1);
  return part === undefined ? undefined : Number(part);
}

/**
 * Finds the message an interrupted sendMessage created. Telegram keeps no nonce and has no way to read a message,
 * but message ids in a chat are sequential and only the bot's own messages can be edited: the ids after the last
 * known one are edited, ascending, to the exact text that was sent. The bot's message with that text answers
 * "message is not modified" (found, nothing changed); a user's "message can't be edited"; an unused id "message to
 * edit not found". Ids the outbox holds for any turn, and ids this process sent itself, are skipped, so another
 * turn's message (or a command's answer) is never taken.
 * A bot message with another text (not journaled, e.g. a command's answer) stops the search: it cannot be this one.
 */
export async function findSentTelegram(params: {
  outbound: TelegramOutbound;
  send: InterruptedSend;
  /** Whether this process sent the message with this id and got its answer (so it belongs to another send). */
  isOwnOther: (messageId: string) => boolean;
  logger: Logger;
}): Promise<{ messageId: string } | undefined> {
  const { outbound, send, logger } = params;
  const after = messageNumber({ id: send.afterId });
  if (after === undefined) return undefined;
  const excluded = new Set([...send.exclude].map((id) => messageNumber({ id })).filter((n): n is number => n !== undefined));
  let missing = 0;
  for (let id = after + 1; id <= after + WINDOW && missing < MISSING_IN_A_ROW; id++) {
    if (excluded.has(id) || params.isOwnOther(String(id))) {
      missing = 0;
      continue;
    }
    const seen = await outbound.probeText({ chat: send.chat, messageId: String(id), text: send.text });
    if (seen === 'same') return { messageId: String(id) };
    if (seen === 'edited') {
      logger.warn({ messageId: id }, 'looking for an interrupted send edited another bot message; giving up the search');
      return undefined;
    }
    missing = seen === 'missing' ? missing + 1 : 0;
  }
  return undefined;
}
