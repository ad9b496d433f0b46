import type { Logger } from 'pino';
import type { AdapterSlots } from './adapter-slots.js';
import type { MessageEvent } from './contracts.js';

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
    const reply = this.slots
      .use({
        name: event.platform,
        fn: (slot) =>
          slot.pacer.run({
            chatKey: event.chat.id,
            op: () => slot.entry.adapter.send({ chat: event.chat, text: this.scrub()(params.text), replyToId: event.messageId }),
          }),
      })
      .then(
        (used) => {
          if (!used.ran) this.logger.warn({ platform: event.platform, chatId: event.chat.id }, `could not send the ${params.what}: the ${event.platform} adapter is gone`);
        },
        (error: unknown) => this.logger.warn({ err: error, platform: event.platform, chatId: event.chat.id }, `could not send the ${params.what}`),
      )
      .finally(() => this.inFlight.delete(reply));
    this.inFlight.add(reply);
  }

  /** Resolves when every reply sent so far has gone out (or failed). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
