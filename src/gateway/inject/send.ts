import type { Logger } from 'pino';
import type { SendTextResult } from '../../jobs/ports.js';
import type { Store } from '../../store/types.js';
import { systemClock, type Clock } from '../../core/clock.js';
import type { AdapterSlots } from '../runtime/slots.js';
import type { ChatRef, PlatformAdapter } from '../../core/adapter.js';
import { StreamDelivery } from '../delivery/stream.js';
import type { MediaPolicy } from '../delivery/media-policy.js';
import type { MediaStager } from '../delivery/media-stage.js';
import { turnJournal, turnLeftovers } from '../turns/journal.js';
import { forwardedProperty } from '../../util/forward-property.js';
import { errorMessage } from '../../util/error-text.js';



/** The adapter with its `send` calls counted (every other member is the adapter's own). */
function countingSends(params: { adapter: PlatformAdapter; count: () => void }): PlatformAdapter {
  const { adapter, count } = params;
  const send: PlatformAdapter['send'] = (message) => {
    count();
    return adapter.send(message);
  };
  return new Proxy(adapter, {
    get: (target, prop) => {
      if (prop === 'send') return send;
      return forwardedProperty({ target, prop });
    },
  });
}

/**
 * Sends a text to a chat (a run's answer to a further target, or on a delivery retry) exactly like a reply is delivered:
 * split at the platform's limit, paced, scrubbed, and its `MEDIA:/path` lines sent as attachments through the same media
 * policy and staging (a refused file gets the reply's "⚠️ Could not attach" note). With `journalId` (an inbox row
 * journaled for this send) every part, attachments too, is journaled like a reply's: a send intent before the call
 * (where the platform can find an interrupted send), its message id after; parts and files an earlier attempt sent
 * (before a crash or a failure) are not sent again, and the ids returned are every part's and file's, once.
 * Not ok when any part or file did not reach the platform (a retry sends what is missing).
 */
export async function sendText(params: {
  slots: AdapterSlots;
  platform: string;
  chat: ChatRef;
  text: string;
  scrub: (text: string) => string;
  /** Refuses files a MEDIA line may not send, as for a reply; all are allowed without it. */
  mediaPolicy?: MediaPolicy;
  /** Copies each allowed file aside and checks the copy, as for a reply. */
  stageMedia?: MediaStager | undefined;
  store?: Store;
  journalId?: number;
  clock?: Clock;
  logger?: Logger;
  /** The newest message id known in the chat: where the platform looks for an interrupted first send (see SentMessages). */
  afterId?: string | undefined;
  /** Stops the platform calls when aborted (a tool's send when its turn is stopped). */
  signal?: AbortSignal;
}): Promise<SendTextResult> {
  const { chat, store, journalId } = params;
  let sends = 0;
  try {
    const used = await params.slots.use({
      name: params.platform,
      fn: async (slot) => {
        const journaled = store !== undefined && journalId !== undefined;
        const leftovers = journaled ? turnLeftovers({ store, inboxId: journalId }) : { existing: [], pending: [] };
        const delivery = new StreamDelivery({
          adapter: countingSends({ adapter: slot.entry.adapter, count: () => (sends += 1) }),
          chat,
          pacer: slot.pacer,
          // Each adapter (bot token) has its own pacer, so the chat id is the key (as for a reply).
          chatKey: chat.id,
          clock: params.clock ?? systemClock,
          cursor: '',
          journal: journaled ? turnJournal({ store, inboxId: journalId, event: { platform: params.platform, chat } }) : { record: () => undefined },
          existing: leftovers.existing,
          pending: leftovers.pending,
          scrub: params.scrub,
          ...(params.mediaPolicy === undefined ? {} : { mediaPolicy: params.mediaPolicy }),
          ...(params.stageMedia === undefined ? {} : { stageMedia: params.stageMedia }),
          ...(params.logger === undefined ? {} : { logger: params.logger }),
          ...(params.signal === undefined ? {} : { signal: params.signal }),
          ...(params.afterId === undefined ? {} : { afterId: params.afterId }),
        });
        // A system turn's answer is delivered the same way: the whole text, then finished (no streaming preview).
        delivery.push(params.text);
        return delivery.finish();
      },
    });
    if (!used.ran) return { ok: false, error: `no ${params.platform} adapter is running` };
    const { value } = used;
    if (!value.textComplete || value.errors.length > 0) return { ok: false, error: params.scrub(value.errors.join('; ') || 'not every part reached the platform') };
    return { ok: true, messageIds: value.messageIds, sends };
  } catch (error) {
    return { ok: false, error: params.scrub(errorMessage(error)) };
  }
}
