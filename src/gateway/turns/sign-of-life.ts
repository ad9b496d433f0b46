import type { Logger } from 'pino';
import type { InboxRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { AdapterSlots } from '../runtime/slots.js';
import type { RateLimitError } from '../../core/errors.js';
import type { TypingHandle } from '../intake/mailbox.js';
import { startTyping } from './typing.js';

export type { TypingHandle } from '../intake/mailbox.js';

/** Typing for a user's message as soon as its turn is next, before any merge wait (system turns show nothing until they answer). */
export function signOfLifeFor(params: {
  row: InboxRow;
  slots: AdapterSlots;
  intervalMs: number;
  clock: Clock;
  logger: Logger;
}): TypingHandle | undefined {
  const { event } = params.row;
  const slot = params.slots.get({ name: event.platform });
  if (slot === undefined || event.system !== undefined) return undefined;
  // Fields on the loop's (rare) lines rather than a child logger per message.
  const context = { inboxId: params.row.id, platform: event.platform, chatId: event.chat.id };
  const skip = (): boolean => slot.pacer.rateLimited({ chatKey: event.chat.id });
  // The slot's adapter counts the 429 among the rate limits waited (metered-adapter.ts).
  const onRateLimited = (error: RateLimitError): void => slot.pacer.hold({ chatKey: event.chat.id, retryAfterMs: error.retryAfterMs });
  return startTyping({ adapter: slot.entry.adapter, chat: event.chat, intervalMs: params.intervalMs, clock: params.clock, logger: params.logger, context, skip, onRateLimited });
}
