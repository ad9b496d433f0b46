import type { Logger } from 'pino';
import type { Store } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { AdapterSlots } from './adapter-slots.js';
import type { ChatRef, PlatformAdapter } from './contracts.js';
import type { ChatPacer } from './delivery/pacer.js';
import { SentMessages } from './delivery/sent-messages.js';
import { splitMessage } from './delivery/split.js';
import { turnLeftovers } from './turn-journal.js';

/** A text sent on its own: the platform's message ids (proof), or why it failed. */
export type SendTextResult = { readonly ok: true; readonly messageIds: readonly string[] } | { readonly ok: false; readonly error: string };

/**
 * Sends a text to a chat (a run's answer to a further target): split at the platform's limit, paced, scrubbed. With
 * `journalId` (an inbox row journaled for this send) each part is journaled like a reply's: a send intent before the
 * call (where the platform can find an interrupted send), its message id after; parts an earlier attempt sent (before a
 * crash or a failure) are not sent again, and the ids returned are every part's, once.
 */
export async function sendText(params: {
  slots: AdapterSlots;
  platform: string;
  chat: ChatRef;
  text: string;
  scrub: (text: string) => string;
  store?: Store;
  journalId?: number;
  clock?: Clock;
  logger?: Logger;
}): Promise<SendTextResult> {
  const { chat, store, journalId } = params;
  let ids: string[] = [];
  try {
    const used = await params.slots.use({
      name: params.platform,
      fn: async (slot) => {
        const text = params.scrub(params.text);
        const adapter = slot.entry.adapter;
        const limit = adapter.capabilities.maxMessageLength;
        const parts = text.length <= limit ? [text] : splitMessage({ text, limit });
        if (store === undefined || journalId === undefined) {
          for (const part of parts) {
            const sent = await slot.pacer.run({ chatKey: chat.id, op: () => adapter.send({ chat, text: part }) });
            ids.push(sent.messageId);
          }
          return;
        }
        ids = await sendJournaled({ platform: params.platform, adapter: paced({ adapter, pacer: slot.pacer, chat }), store, journalId, chat, parts, ...(params.clock ? { clock: params.clock } : {}), ...(params.logger ? { logger: params.logger } : {}) });
      },
    });
    if (!used.ran) return { ok: false, error: `no ${params.platform} adapter is running` };
    return { ok: true, messageIds: ids };
  } catch (error) {
    return { ok: false, error: params.scrub(error instanceof Error ? error.message : String(error)) };
  }
}

/** Sends the parts at seq 0.. through the journal of inbox row `journalId` (parts found there are kept, not sent again). */
async function sendJournaled(params: { platform: string; adapter: PlatformAdapter; store: Store; journalId: number; chat: ChatRef; parts: readonly string[]; clock?: Clock; logger?: Logger }): Promise<string[]> {
  const { store, journalId, chat } = params;
  const { existing, pending } = turnLeftovers({ store, inboxId: journalId });
  const where = { inboxId: journalId, platform: params.platform, chatId: chat.id };
  const sent = new SentMessages({
    adapter: params.adapter,
    chat,
    existing,
    pending,
    journal: {
      record: (row) => store.recordOutbound({ ...where, ...row }),
      intend: (intent) => store.recordSendIntent({ ...where, seq: intent.seq, nonce: intent.nonce, afterId: intent.afterId ?? null, text: intent.text }),
      claimedIds: () => new Set(store.outboundIdsInChat({ platform: where.platform, chatId: chat.id })),
    },
    ...(params.clock ? { clock: params.clock } : {}),
    ...(params.logger ? { logger: params.logger } : {}),
  });
  const ids: string[] = [];
  for (const [seq, part] of params.parts.entries()) {
    await sent.put({ seq, text: part, state: 'final' });
    const id = sent.get({ seq })?.id;
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** The adapter with its sends and edits paced per chat (and its interrupted-send lookup, when it has one). */
function paced(params: { adapter: PlatformAdapter; pacer: ChatPacer; chat: ChatRef }): PlatformAdapter {
  const { adapter, pacer, chat } = params;
  const resolveSend = adapter.resolveSend?.bind(adapter);
  return {
    name: adapter.name,
    capabilities: adapter.capabilities,
    start: (p) => adapter.start(p),
    send: (m) => pacer.run({ chatKey: chat.id, op: () => adapter.send(m) }),
    edit: (r) => pacer.run({ chatKey: chat.id, op: () => adapter.edit(r) }),
    ...(resolveSend ? { resolveSend: (s) => pacer.run({ chatKey: chat.id, op: () => resolveSend(s) }) } : {}),
  };
}
