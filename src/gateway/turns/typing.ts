import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import type { ChatRef, PlatformAdapter } from '../../core/adapter.js';
import { RateLimitError } from '../../core/errors.js';

/** The reason the typing loop is stopped with (abort() without one builds a DOMException, with its stack, per turn). */
const TYPING_STOPPED = new Error('typing stopped');

/** Keeps a typing indicator alive while a turn runs; `stop()` ends it (always call it, also on error). */
export function startTyping(params: {
  adapter: PlatformAdapter;
  chat: ChatRef;
  intervalMs: number;
  clock: Clock;
  logger: Logger;
  /** Fields every line of this loop carries (the turn's inbox id, platform, chat): given per line, not as a child logger. */
  context?: Readonly<Record<string, string | number>>;
  /** True while the platform must not be called for this chat (a rate limit's retry_after). */
  skip: () => boolean;
  /** The platform refused a typing call with a rate limit: nothing may call the chat before its retry_after (the pacer's hold). */
  onRateLimited: (error: RateLimitError) => void;
}): { stop: () => void } {
  const { adapter, chat } = params;
  const controller = new AbortController();
  if (!adapter.typing || !adapter.capabilities.typing) return { stop: () => controller.abort(TYPING_STOPPED) };
  const typing = adapter.typing.bind(adapter);
  void (async () => {
    while (!controller.signal.aborted) {
      try {
        if (!params.skip()) await typing({ chat });
      } catch (error) {
        if (error instanceof RateLimitError) {
          params.onRateLimited(error);
          params.logger.warn({ ...params.context, method: error.method, retryAfterMs: error.retryAfterMs }, 'typing indicator rate limited; the chat is not called before retry_after');
        } else {
          params.logger.debug({ ...params.context, err: error }, 'typing indicator failed');
        }
      }
      try {
        await params.clock.sleep(params.intervalMs, controller.signal);
      } catch {
        return;
      }
    }
  })();
  return {
    stop: () => {
      if (controller.signal.aborted) return;
      controller.abort(TYPING_STOPPED);
      void adapter.typingDone?.({ chat })?.catch((error: unknown) => params.logger.debug({ ...params.context, err: error }, 'clearing the typing indicator failed'));
    },
  };
}
