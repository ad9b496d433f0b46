import type { Logger } from 'pino';
import type { InboxRow, Store } from '../../store/types.js';
import type { MessagingCapability } from '../../tools/capabilities.js';
import { ToolError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import type { ChatRef } from '../../core/adapter.js';
import type { SendTextResult } from '../../jobs/ports.js';
import { turnOriginOf } from '../turns/tools.js';
import { newestKnownId, sendJournal } from './journal.js';
import { listMessageTargets, resolveMessageTarget } from './targets.js';

/** Sends a text to a chat through the normal delivery path (split, paced, scrubbed, MEDIA lines as attachments), journaled under `journalId`. */
export type MessagingSend = (params: { platform: string; chat: ChatRef; text: string; journalId: number; afterId: string | undefined; signal: AbortSignal }) => Promise<SendTextResult>;

/** Longest message `send_message` takes, in characters (longer ones are split by the delivery into several messages). */
export const MAX_MESSAGE_CHARS = 20_000;

/**
 * `send_message` for one turn (`row`): lists the chats the profile talks with and sends to one of them. A send is
 * journaled under the turn and the call (sendJournal), so the turn's replay after a crash, or the same call made twice,
 * never delivers it twice: what reached the platform is found (recorded, or looked up for an interrupted send) and the
 * model is told it was already sent. Refusals and failures are ToolErrors the model reads.
 */
export function messagingCapability(params: {
  store: Store;
  clock: Clock;
  /** The profile's name (the journal rows' session keys). */
  profile: string;
  row: InboxRow;
  /** Platforms whose adapter runs in this gateway. */
  platforms: () => readonly string[];
  send: MessagingSend;
  logger: Logger;
}): MessagingCapability {
  const { store, row, logger } = params;
  const origin = turnOriginOf({ event: row.event });
  return {
    list: async () => listMessageTargets({ store, platforms: params.platforms() }),
    send: async ({ target, message, signal }) => {
      if (message.trim() === '') throw new ToolError('send_message refused: the message is empty; nothing was sent.');
      if (message.length > MAX_MESSAGE_CHARS) throw new ToolError(`send_message refused: the message is ${message.length} characters, at most ${MAX_MESSAGE_CHARS} are sent; shorten it.`);
      const resolved = resolveMessageTarget({ store, target, origin, platforms: params.platforms() });
      if (!resolved.ok) throw new ToolError(`send_message refused: ${resolved.error}. Nothing was sent.`);
      const { key, platform, chat } = resolved;
      const journal = sendJournal({ store, clock: params.clock, profile: params.profile, turn: row, key, platform, chat, message });
      if (signal.aborted) throw new ToolError('send_message: the turn was stopped before the message was sent.');
      const afterId = newestKnownId({ store, platform, chatId: chat.id });
      const sent = await params.send({ platform, chat, text: message, journalId: journal.inboxId, afterId, signal });
      if (!sent.ok) {
        logger.warn({ target: key, inboxId: journal.inboxId, error: sent.error }, 'send_message: not everything reached the chat');
        throw new ToolError(
          `send_message to ${key} did not fully arrive: ${sent.error}. What reached the chat is recorded: the same call (same target and message) sends only what is missing.`,
        );
      }
      const ids = sent.messageIds;
      // Nothing went to the platform now: an earlier attempt of this call had sent it all (recorded, or found after a crash).
      const already = journal.earlier && sent.sends === 0;
      logger.info({ target: key, inboxId: journal.inboxId, messageIds: ids, already }, already ? 'send_message: already sent by this turn, not sent again' : 'send_message: sent');
      const own = resolved.own ? ' That is the chat this conversation is in: your reply goes there anyway, so do not repeat the message in it.' : '';
      if (already) return `Already sent to ${key} earlier in this turn, before a restart or by the same call (message ids ${ids.join(', ')}); it was not sent again.${own}`;
      const resumed = journal.earlier ? ' (an earlier attempt of this send was cut short; nothing it got through was sent twice)' : '';
      return `Sent to ${key}${resumed}: message ids ${ids.join(', ')}.${own}`;
    },
  };
}
