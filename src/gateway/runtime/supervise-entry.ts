import type { Logger } from 'pino';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { ChoiceAnswer, ChoiceEvent, EmitOutcome, MessageEvent, Sender } from '../../core/adapter.js';
import type { AdapterEntry } from '../../core/platform.js';
import { AdapterSupervisor, type SupervisorBackoff } from './supervisor.js';

/**
 * A supervisor for one adapter entry: its messages go to `accept`, its button presses to `choose`, its senders are
 * checked with `mayTalk`, and its key/value storage lives in the store's cursors under `<platform>:<key>`.
 */
export function superviseEntry(params: {
  entry: AdapterEntry;
  store: Store;
  clock: Clock;
  logger: Logger;
  backoff: Partial<SupervisorBackoff> | undefined;
  /** Takes a message; resolves with what became of it (handed back to the adapter from `emit`). */
  accept: (params: { event: MessageEvent; via: string }) => Promise<EmitOutcome>;
  mayTalk: (params: { platform: string; sender: Sender; entry: AdapterEntry }) => boolean;
  /** Where its button presses go (the runner's ChoiceRouter). */
  choose: (event: ChoiceEvent) => Promise<ChoiceAnswer>;
}): AdapterSupervisor {
  const { entry, store } = params;
  const name = entry.adapter.name;
  return new AdapterSupervisor({
    adapter: entry.adapter,
    emit: (event) => params.accept({ event, via: name }),
    mayTalk: ({ sender }) => params.mayTalk({ platform: name, sender, entry }),
    choose: params.choose,
    storage: {
      get: ({ name: key }) => store.getCursor({ name: `${name}:${key}` }),
      set: ({ name: key, value }) => store.setCursor({ name: `${name}:${key}`, value }),
    },
    clock: params.clock,
    logger: params.logger,
    ...(params.backoff ? { backoff: params.backoff } : {}),
  });
}
