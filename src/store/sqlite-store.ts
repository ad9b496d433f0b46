import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { diskErrorKind, errorCode, type DiskReporter } from '../util/disk-error.js';
import { diskOpenFailure, openDatabase } from './connection.js';
import { createCursorQueries } from './cursors.js';
import { StoreClosedError, StoreDiskError } from './errors.js';
import { createHomeChannelQueries } from './home-channels.js';
import { createApprovalRuleQueries } from './approval-rules.js';
import { createInboxQueries } from './inbox.js';
import { createJobRunQueries } from './job-runs.js';
import { createJobQueries } from './jobs.js';
import { createMessageQueries } from './messages.js';
import { createModelCallQueries } from './model-calls.js';
import { createCredentialQueries } from './credentials.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations.js';
import { createOutboxQueries } from './outbox.js';
import { createPairingQueries } from './pairing.js';
import { createScrubQueries } from './scrub-rows.js';
import { createCandidateFinder } from './search-candidates.js';
import { createSearchQueries } from './search.js';
import { createSendIntentQueries } from './send-intents.js';
import { createSessionSwitchQueries } from './session-switch.js';
import { createSessionSearchQueries } from './session-search.js';
import { createSessionPromptQueries } from './session-prompts.js';
import { createSessionQueries } from './sessions.js';
import { createChatStateQueries } from './chat-state.js';
import { silentStoreLogger, type StoreLogger } from './store-logger.js';
import type { Store } from './types.js';

/** What `openStore` takes. */
export interface OpenStoreParams {
  /** Database file, or ':memory:' (tests). Its directory must exist. */
  readonly path: string;
  /** Source of every timestamp the store writes. */
  readonly clock: Clock;
  readonly logger?: StoreLogger;
  /** Told when the disk refuses a store write. */
  readonly disk?: DiskReporter;
  /** Runs once on the open connection after migrations (tests set a tiny max_page_count: a real SQLITE_FULL). */
  readonly configure?: (db: Database.Database) => void;
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
 * newer hermes. A call the disk refuses (SQLITE_FULL, SQLITE_IOERR*, SQLITE_READONLY*, ENOSPC, EROFS, EDQUOT)
 * throws StoreDiskError and is reported to `disk` (whose probe, a write, finds out when it works again).
 */
export function openStore(params: OpenStoreParams): Store {
  const { path: dbPath, clock } = params;
  const logger = params.logger ?? silentStoreLogger;
  const db = openDatabase({ path: dbPath, logger });
  let closed = false;
  try {
    migrate({ db, migrations, clock, location: dbPath, logger });
  } catch (error) {
    db.close();
    throw diskOpenFailure({ error, path: dbPath }) ?? error;
  }
  const inbox = createInboxQueries({ db, clock, logger });
  const outbox = createOutboxQueries({ db, clock });
  const intents = createSendIntentQueries({ db, clock });
  const sessions = createSessionQueries({ db, clock });
  const prompts = createSessionPromptQueries({ db });
  const usage = createModelCallQueries({ db, clock });
  const credentials = createCredentialQueries({ db, clock });
  const messages = createMessageQueries({ db, clock });
  const chains = createSessionSwitchQueries({ db, sessions, messages, prompts });
  const find = createCandidateFinder({ db });
  const search = createSearchQueries({ db, find });
  const sessionSearch = createSessionSearchQueries({ db, find });
  const scrubbing = createScrubQueries({ db });
  const cursors = createCursorQueries({ db, clock });
  const pairing = createPairingQueries({ db, clock });
  const jobs = createJobQueries({ db, clock, logger });
  const runs = createJobRunQueries({ db, clock });
  const homes = createHomeChannelQueries({ db, clock });
  const approvals = createApprovalRuleQueries({ db, clock });
  const chatState = createChatStateQueries({ db, clock });
  params.configure?.(db);
  const folder = dbPath === ':memory:' ? undefined : path.dirname(dbPath);

  /** A driver error the disk caused, as a StoreDiskError (reported); any other error as it is. */
  const classified = (error: unknown, operation: string): unknown => {
    const kind = diskErrorKind({ error, ...(folder !== undefined ? { path: folder } : {}) });
    if (kind === undefined) return error;
    const failure = new StoreDiskError({ kind, code: errorCode({ error }) || 'unknown', operation, location: dbPath, cause: error });
    params.disk?.failed({ part: 'store', kind, detail: `the store cannot write (${failure.code} during ${operation})` });
    return failure;
  };

  /** Wraps a method so a call after close() fails with a clear error instead of a driver TypeError, and a refused write becomes a StoreDiskError. */
  const live =
    <A extends unknown[], R>(operation: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      if (closed) throw new StoreClosedError({ location: dbPath });
      try {
        return fn(...args);
      } catch (error) {
        throw classified(error, operation);
      }
    };

  return {
    recordInbound: live('recordInbound', inbox.recordInbound),
    setInboxState: live('setInboxState', inbox.setInboxState),
    pendingInbound: live('pendingInbound', inbox.pendingInbound),
    getInbound: live('getInbound', inbox.getInbound),
    pruneInbound: live('pruneInbound', inbox.pruneInbound),
    recordOutbound: live('recordOutbound', outbox.recordOutbound),
    outboundFor: live('outboundFor', outbox.outboundFor),
    completeTurn: live('completeTurn', outbox.completeTurn),
    recordSendIntent: live('recordSendIntent', intents.recordSendIntent),
    sendIntentsFor: live('sendIntentsFor', intents.sendIntentsFor),
    outboundIdsInChat: live('outboundIdsInChat', intents.outboundIdsInChat),
    activeSession: live('activeSession', sessions.activeSession),
    createSession: live('createSession', sessions.createSession),
    endSession: live('endSession', sessions.endSession),
    setSessionTitle: live('setSessionTitle', sessions.setSessionTitle),
    listSessions: live('listSessions', sessions.listSessions),
    getSession: live('getSession', sessions.getSession),
    sessionPrompt: live('sessionPrompt', prompts.sessionPrompt),
    setSessionPrompt: live('setSessionPrompt', prompts.setSessionPrompt),
    continueSession: live('continueSession', chains.continueSession),
    sessionModel: live('sessionModel', chatState.sessionModel),
    setSessionModel: live('setSessionModel', chatState.setSessionModel),
    chatToolProgress: live('chatToolProgress', chatState.chatToolProgress),
    setChatToolProgress: live('setChatToolProgress', chatState.setChatToolProgress),
    reopenSession: live('reopenSession', chatState.reopenSession),
    sessionUsageByModel: live('sessionUsageByModel', chatState.sessionUsageByModel),
    recordModelCall: live('recordModelCall', usage.recordModelCall),
    sessionUsage: live('sessionUsage', usage.sessionUsage),
    lastPromptTokens: live('lastPromptTokens', usage.lastPromptTokens),
    credentialStates: live('credentialStates', credentials.credentialStates),
    recordCredentialUse: live('recordCredentialUse', credentials.recordCredentialUse),
    setCredentialCooldown: live('setCredentialCooldown', credentials.setCredentialCooldown),
    appendMessage: live('appendMessage', messages.appendMessage),
    history: live('history', messages.history),
    historyStart: live('historyStart', messages.historyStart),
    deleteTurnMessages: live('deleteTurnMessages', messages.deleteTurnMessages),
    countUserTurns: live('countUserTurns', messages.countUserTurns),
    hideMessages: live('hideMessages', messages.hideMessages),
    hiddenMessages: live('hiddenMessages', messages.hiddenMessages),
    search: live('search', search.search),
    searchSessions: live('searchSessions', sessionSearch.searchSessions),
    scrubStoredBatch: live('scrubStoredBatch', scrubbing.scrubStoredBatch),
    compactAfterScrub: live('compactAfterScrub', scrubbing.compactAfterScrub),
    getCursor: live('getCursor', cursors.getCursor),
    setCursor: live('setCursor', cursors.setCursor),
    createPairingRequest: live('createPairingRequest', pairing.createPairingRequest),
    pairingRequests: live('pairingRequests', pairing.pairingRequests),
    pairingRequestForSender: live('pairingRequestForSender', pairing.pairingRequestForSender),
    findPairingRequest: live('findPairingRequest', pairing.findPairingRequest),
    takePairingRequest: live('takePairingRequest', pairing.takePairingRequest),
    approveSender: live('approveSender', pairing.approveSender),
    isApprovedSender: live('isApprovedSender', pairing.isApprovedSender),
    approvedSenders: live('approvedSenders', pairing.approvedSenders),
    revokeSender: live('revokeSender', pairing.revokeSender),
    prunePairingRequests: live('prunePairingRequests', pairing.prunePairingRequests),
    createJob: live('createJob', jobs.createJob),
    updateJob: live('updateJob', jobs.updateJob),
    setJobState: live('setJobState', jobs.setJobState),
    job: live('job', jobs.job),
    listJobs: live('listJobs', jobs.listJobs),
    removeJob: live('removeJob', jobs.removeJob),
    dueJobs: live('dueJobs', jobs.dueJobs),
    claimRun: live('claimRun', runs.claimRun),
    setRunSession: live('setRunSession', runs.setRunSession),
    finishRun: live('finishRun', runs.finishRun),
    dueRetries: live('dueRetries', runs.dueRetries),
    claimRetry: live('claimRetry', runs.claimRetry),
    openRuns: live('openRuns', runs.openRuns),
    recordDelivery: live('recordDelivery', runs.recordDelivery),
    runsOf: live('runsOf', runs.runsOf),
    recordSkipped: live('recordSkipped', runs.recordSkipped),
    setHomeChannel: live('setHomeChannel', homes.setHomeChannel),
    homeChannel: live('homeChannel', homes.homeChannel),
    homeChannels: live('homeChannels', homes.homeChannels),
    knownChats: live('knownChats', homes.knownChats),
    approvalRules: live('approvalRules', approvals.approvalRules),
    addApprovalRule: live('addApprovalRule', approvals.addApprovalRule),
    removeApprovalRule: live('removeApprovalRule', approvals.removeApprovalRule),
    close: () => {
      if (closed) return;
      closed = true;
      closeDatabase(db, logger);
    },
  };
}
