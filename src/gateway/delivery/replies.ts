import type { Logger } from 'pino';
import type { AdapterSlots } from '../runtime/slots.js';
import type { ChatRef, MessageEvent } from '../../core/adapter.js';
import { splitMessage } from './split.js';

/**
 * The gateway's own replies (command answers, pairing codes): sent through the chat's pacer on the platform's
 * current adapter without making the adapter's intake wait for them; `drain` waits for those still going out.
 */
export class GatewayReplies {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly slots: AdapterSlots;
  private readonly logger: Logger;
  private readonly scrub: () => (text: string) => string;

  constructor(params: { slots: AdapterSlots; logger: Logger; /** The current secret scrubber. */ scrub: () => (text: string) => string }) {
    this.slots = params.slots;
    this.logger = params.logger;
    this.scrub = params.scrub;
  }

  /** How many replies are still being sent. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Sends `text` in reply to `event` in the background; a failure is logged as "could not send the WHAT". */
  send(params: { event: MessageEvent; text: string; what: string }): void {
    const { event } = params;
    this.post({ platform: event.platform, chat: event.chat, text: params.text, replyToId: event.messageId, what: params.what });
  }

  /** Sends `text` to a chat on its own (not as a reply, e.g. a notice to the owner) in the background, like `send`. */
  notify(params: { platform: string; chat: ChatRef; text: string; what: string }): void {
    this.post(params);
  }

  private post(params: { platform: string; chat: ChatRef; text: string; replyToId?: string; what: string }): void {
    const { platform, chat, replyToId } = params;
    const reply = this.slots
      .use({
        name: platform,
        fn: async (slot) => {
          // A long reply (e.g. /memory with full files) is cut at the platform's message limit, parts in order.
          const text = this.scrub()(params.text);
          const limit = slot.entry.adapter.capabilities.maxMessageLength;
          const parts = text.length <= limit ? [text] : splitMessage({ text, limit });
          for (const [i, part] of parts.entries()) {
            const first = i === 0 && replyToId !== undefined;
            await slot.pacer.run({ chatKey: chat.id, op: () => slot.entry.adapter.send({ chat, text: part, ...(first ? { replyToId } : {}) }) });
          }
        },
      })
      .then(
        (used) => {
          if (!used.ran) this.logger.warn({ platform, chatId: chat.id }, `could not send the ${params.what}: the ${platform} adapter is gone`);
        },
        (error: unknown) => this.logger.warn({ err: error, platform, chatId: chat.id }, `could not send the ${params.what}`),
      )
      .finally(() => this.inFlight.delete(reply));
    this.inFlight.add(reply);
  }

  /** Resolves when every reply sent so far has gone out (or failed). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
