import type { Logger } from 'pino';
import type { ChoiceAnswer, ChoiceEvent } from '../../core/adapter.js';

/** Handles presses whose choice id starts with its prefix; undefined when the press belongs to nothing it has pending. */
export type ChoiceHandler = (event: ChoiceEvent) => Promise<ChoiceAnswer | undefined>;

/** What a press that belongs to nothing pending gets: the notice, and the buttons removed. */
const EXPIRED: ChoiceAnswer = { notice: 'This question was already answered or has expired.', retire: true };

/**
 * Routes button presses from every adapter to the part of the gateway that asked (approvals, clarify questions): a
 * choice id is `<prefix>:<rest>`, and each asker registers its prefix. A press nobody claims (answered before,
 * timed out, asked before a restart) retires its buttons. Never rejects.
 */
export class ChoiceRouter {
  private readonly handlers = new Map<string, ChoiceHandler>();
  private readonly logger: Logger;

  constructor(params: { logger: Logger }) {
    this.logger = params.logger;
  }

  /** Registers the handler of one prefix (letters and digits); returns its removal. */
  register(params: { prefix: string; handle: ChoiceHandler }): () => void {
    if (!/^[a-z0-9]+$/.test(params.prefix)) throw new Error(`choice prefix must be lowercase letters and digits: ${params.prefix}`);
    if (this.handlers.has(params.prefix)) throw new Error(`choice prefix ${params.prefix} is registered already`);
    this.handlers.set(params.prefix, params.handle);
    return () => {
      if (this.handlers.get(params.prefix) === params.handle) this.handlers.delete(params.prefix);
    };
  }

  /** The answer to one press. */
  async choose(event: ChoiceEvent): Promise<ChoiceAnswer> {
    const prefix = event.choiceId.split(':', 1)[0] ?? '';
    const handle = this.handlers.get(prefix);
    if (handle === undefined) return EXPIRED;
    try {
      return (await handle(event)) ?? EXPIRED;
    } catch (error) {
      this.logger.warn({ err: error, platform: event.platform, prefix }, 'a button press could not be handled; its buttons are removed');
      return EXPIRED;
    }
  }
}
