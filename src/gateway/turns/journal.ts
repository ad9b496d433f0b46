import type { Store } from '../../store/types.js';
import type { MessageEvent } from '../../core/adapter.js';
import type { DeliveryJournal, ExistingMessage, SendIntent } from '../delivery/sent-messages.js';

/** Where a turn's delivery journals what it sends: the outbox and send intents of the turn's inbox row. */
export function turnJournal(params: { store: Store; inboxId: number; event: Pick<MessageEvent, 'platform' | 'chat'> }): DeliveryJournal {
  const { store, inboxId, event } = params;
  const where = { inboxId, platform: event.platform, chatId: event.chat.id };
  return {
    record: (row) => store.recordOutbound({ ...where, ...row }),
    intend: (intent) => store.recordSendIntent({ ...where, seq: intent.seq, nonce: intent.nonce, afterId: intent.afterId ?? null, text: intent.text }),
    claimedIds: () => new Set(store.outboundIdsInChat({ platform: event.platform, chatId: event.chat.id })),
  };
}

/** What a crashed earlier attempt of the turn left on the platform: messages it recorded, and sends whose answer never came. */
export function turnLeftovers(params: { store: Store; inboxId: number }): { existing: ExistingMessage[]; pending: SendIntent[] } {
  const existing = params.store.outboundFor({ inboxId: params.inboxId }).map((o) => ({ seq: o.seq, platformMessageId: o.platformMessageId, text: o.text }));
  const pending = params.store
    .sendIntentsFor({ inboxId: params.inboxId })
    .map((i) => ({ seq: i.seq, nonce: i.nonce, text: i.text, sentAt: i.createdAt, ...(i.afterId === null ? {} : { afterId: i.afterId }) }));
  return { existing, pending };
}
