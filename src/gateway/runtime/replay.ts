import type { Logger } from 'pino';
import type { Store } from '../../store/types.js';
import type { AdapterSlots } from './slots.js';
import type { SessionMailboxes } from '../intake/mailboxes.js';

/** Queues the messages a previous run did not finish (at start), each on its platform's current adapter. */
export function replayPending(params: { store: Store; slots: AdapterSlots; mailboxes: SessionMailboxes; logger: Logger }): void {
  const pending = params.store.pendingInbound();
  if (pending.length === 0) return;
  let replayed = 0;
  for (const row of pending) {
    const slot = params.slots.get({ name: row.event.platform });
    if (!slot) continue;
    params.mailboxes.for({ key: row.sessionKey, entry: slot.entry }).enqueue({ row, replay: true });
    replayed += 1;
  }
  params.logger.info({ pending: pending.length, replayed }, 'replaying messages a previous run did not finish');
}
