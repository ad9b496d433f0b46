import type { Logger } from 'pino';
import type { ClarifyAnswer, ClarifyCapability } from '../../tools/capabilities.js';
import type { MessageEvent, PlatformAdapter } from '../../core/adapter.js';
import type { ChatPacer } from '../delivery/pacer.js';
import type { ClarifyDesk } from './desk.js';

/** What the model is told when the turn's platform has nobody who can answer. */
const NO_OWNER = 'nobody on this platform can answer (its allowed_users in config names no owner)';

/**
 * The `ClarifyCapability` of one turn: the question (scrubbed of secrets) is asked in the turn's chat through `desk` and
 * waits up to `timeoutMs` (`tools.clarify_timeout`). Never rejects; every outcome is logged in one line.
 */
export function clarifyCapability(params: {
  desk: ClarifyDesk;
  event: MessageEvent;
  sessionKey: string;
  adapter: PlatformAdapter;
  pacer: ChatPacer;
  timeoutMs: number;
  /** Whether the turn's platform has anyone who can answer. */
  hasOwner: boolean;
  scrub: (text: string) => string;
  logger: Logger;
}): ClarifyCapability {
  const { desk, event, logger } = params;
  return {
    ask: async (request): Promise<ClarifyAnswer> => {
      if (!params.hasOwner) return { answered: false, reason: NO_OWNER };
      try {
        return await desk.ask({
          sessionKey: params.sessionKey,
          platform: event.platform,
          chat: event.chat,
          adapter: params.adapter,
          pacer: params.pacer,
          question: params.scrub(request.question),
          choices: (request.choices ?? []).map((c) => params.scrub(c)),
          timeoutMs: params.timeoutMs,
          signal: request.signal,
        });
      } catch (error) {
        logger.warn({ err: error }, 'clarify failed; the model is told there is no answer');
        return { answered: false, reason: 'the question could not be asked (see the gateway log)' };
      }
    },
  };
}
