import type Database from 'better-sqlite3';
import type { Clock } from '../util/clock.js';
import { openDatabase } from './connection.js';
import { createCursorQueries } from './cursors.js';
import { StoreClosedError } from './errors.js';
import { createInboxQueries } from './inbox.js';
import { createMessageQueries } from './messages.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations.js';
import { createOutboxQueries } from './outbox.js';
import { createPairingQueries } from './pairing.js';
import { createSearchQueries } from './search.js';
import { createSendIntentQueries } from './send-intents.js';
import { createSessionQueries } from './sessions.js';
import { silentStoreLogger, type StoreLogger } from './store-logger.js';
import type { Store } from './types.js';

/** What `openStore` takes. */
export interface OpenStoreParams {
  /** Database file, or ':memory:' (tests). Its directory must exist. */
  readonly path: string;
  /** Source of every timestamp the store writes. */
  readonly clock: Clock;
  readonly logger?: StoreLogger;
}

/** Checkpoints the WAL into the main file (so a closed store is one self-contained file), then closes. */
function closeDatabase(db: Database.Database, logger: StoreLogger): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    logger.warn({ path: db.name, err: error }, 'store: WAL checkpoint on close failed; SQLite will redo it on next open');
  }
  db.close();
}

/**
 * Opens (creating if needed) the SQLite store at `path`, applies pending migrations and prepares
 * every statement once. Throws UserFacingError when the file cannot be opened or was written by a
 * newer hermes.
 */
export function openStore(params: OpenStoreParams): Store {
  const { path, clock } = params;
  const logger = params.logger ?? silentStoreLogger;
  const db = openDatabase({ path, logger });
  let closed = false;
  try {
    migrate({ db, migrations, clock, location: path, logger });
  } catch (error) {
    db.close();
    throw error;
  }
  const inbox = createInboxQueries({ db, clock, logger });
  const outbox = createOutboxQueries({ db, clock });
  const intents = createSendIntentQueries({ db, clock });
  const sessions = createSessionQueries({ db, clock });
  const messages = createMessageQueries({ db, clock });
  const search = createSearchQueries({ db });
  const cursors = createCursorQueries({ db, clock });
  const pairing = createPairingQueries({ db, clock });

  /** Wraps a method so a call after close() fails with a clear error instead of a driver TypeError. */
  const live =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      if (closed) throw new StoreClosedError({ location: path });
      return fn(...args);
    };

  return {
    recordInbound: live(inbox.recordInbound),
    setInboxState: live(inbox.setInboxState),
    pendingInbound: live(inbox.pendingInbound),
    getInbound: live(inbox.getInbound),
    pruneInbound: live(inbox.pruneInbound),
    recordOutbound: live(outbox.recordOutbound),
    outboundFor: live(outbox.outboundFor),
    completeTurn: live(outbox.completeTurn),
    recordSendIntent: live(intents.recordSendIntent),
    sendIntentsFor: live(intents.sendIntentsFor),
    outboundIdsInChat: live(intents.outboundIdsInChat),
    activeSession: live(sessions.activeSession),
    createSession: live(sessions.createSession),
    endSession: live(sessions.endSession),
    setSessionTitle: live(sessions.setSessionTitle),
    listSessions: live(sessions.listSessions),
    getSession: live(sessions.getSession),
    appendMessage: live(messages.appendMessage),
    history: live(messages.history),
    deleteTurnMessages: live(messages.deleteTurnMessages),
    search: live(search.search),
    getCursor: live(cursors.getCursor),
    setCursor: live(cursors.setCursor),
    createPairingRequest: live(pairing.createPairingRequest),
    pairingRequests: live(pairing.pairingRequests),
    pairingRequestForSender: live(pairing.pairingRequestForSender),
    findPairingRequest: live(pairing.findPairingRequest),
    takePairingRequest: live(pairing.takePairingRequest),
    approveSender: live(pairing.approveSender),
    isApprovedSender: live(pairing.isApprovedSender),
    approvedSenders: live(pairing.approvedSenders),
    revokeSender: live(pairing.revokeSender),
    prunePairingRequests: live(pairing.prunePairingRequests),
    close: () => {
      if (closed) return;
      closed = true;
      closeDatabase(db, logger);
    },
  };
}
