import type { RejectionLog } from '../http/rejection-log.js';
import { storeDiskErrorOf } from '../../store/errors.js';
import type { InboxRow, Store } from '../../store/types.js';
import { diskReason } from '../../util/disk-error.js';
import type { MessageEvent } from '../../core/adapter.js';
import { JournalRefusedError } from '../../core/errors.js';
import type { AdapterEntry } from '../../core/platform.js';
import type { SenderGate } from './sender-gate.js';
import { sessionKeyFor } from '../../core/session-key.js';

/** What journaling an inbound event gave: refused by the sender gate, or the row (inserted now, or found from before). */
export type JournalResult = 'unauthorized' | { inserted: boolean; row: InboxRow; sessionKey: string };

/** Authorizes and journals an event; a write the disk refuses becomes JournalRefusedError (logged rate-limited per platform). */
export function journalEvent(params: { event: MessageEvent; entry: AdapterEntry; gate: SenderGate; store: Store; refusals: RejectionLog; profile: string }): JournalResult {
  const { event } = params;
  try {
    if (!params.gate.admit({ event, entry: params.entry })) return 'unauthorized';
    const sessionKey = sessionKeyFor({ profile: params.profile, event });
    return { ...params.store.recordInbound({ event, sessionKey }), sessionKey };
  } catch (error) {
    const refused = storeDiskErrorOf({ error });
    if (refused === undefined) throw error;
    const reason = diskReason({ kind: refused.kind });
    params.refusals.reject({
      source: event.platform,
      reason: 'journal_refused',
      fields: { platform: event.platform, messageId: event.messageId, code: refused.code },
      message: `message not taken: the store cannot journal it (${reason}); the platform delivers it again`,
    });
    throw new JournalRefusedError({ reason, cause: error });
  }
}
