import type { AdapterSlots } from './adapter-slots.js';
import type { ChatRef } from './contracts.js';
import { splitMessage } from './delivery/split.js';

/** A text sent on its own: the platform's message ids (proof), or why it failed. */
export type SendTextResult = { readonly ok: true; readonly messageIds: readonly string[] } | { readonly ok: false; readonly error: string };

/** Sends a text to a chat (a run's answer to a further target): split at the platform's limit, paced, scrubbed. */
export async function sendText(params: { slots: AdapterSlots; platform: string; chat: ChatRef; text: string; scrub: (text: string) => string }): Promise<SendTextResult> {
  const { chat } = params;
  const ids: string[] = [];
  try {
    const used = await params.slots.use({
      name: params.platform,
      fn: async (slot) => {
        const text = params.scrub(params.text);
        const limit = slot.entry.adapter.capabilities.maxMessageLength;
        const parts = text.length <= limit ? [text] : splitMessage({ text, limit });
        for (const part of parts) {
          const sent = await slot.pacer.run({ chatKey: chat.id, op: () => slot.entry.adapter.send({ chat, text: part }) });
          ids.push(sent.messageId);
        }
      },
    });
    if (!used.ran) return { ok: false, error: `no ${params.platform} adapter is running` };
    return { ok: true, messageIds: ids };
  } catch (error) {
    return { ok: false, error: params.scrub(error instanceof Error ? error.message : String(error)) };
  }
}
