import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { ApprovalStore } from './approval-store.js';
import { createApprovalRuleQueries } from './approval-rules.js';
import { createChatStateQueries, type ChatStateQueries } from './chat-state.js';
import { createCredentialQueries, type CredentialQueries } from './credentials.js';
import { createCursorQueries, type CursorQueries } from './cursors.js';
import { createHomeChannelQueries, type HomeChannelQueries } from './home-channels.js';
import { createInboxQueries, type InboxQueries } from './inbox.js';
import { createJobRunQueries, type JobRunQueries } from './job-runs.js';
import { createJobQueries, type JobQueries } from './jobs.js';
import { createMessageQueries, type MessageQueries } from './messages.js';
import { createModelCallQueries, type ModelCallQueries } from './model-calls.js';
import { createOutboxQueries, type OutboxQueries } from './outbox.js';
import { createPairingQueries, type PairingQueries } from './pairing.js';
import { createScrubQueries, type ScrubQueries } from './scrub-rows.js';
import { createCandidateFinder } from './search-candidates.js';
import { createSearchIndex, type SearchIndex } from './search-index.js';
import { createSearchQueries, type SearchQueries } from './search.js';
import { createSendIntentQueries, type SendIntentQueries } from './send-intents.js';
import { createSessionPromptQueries, type SessionPromptQueries } from './session-prompts.js';
import { createSessionSearchQueries, type SessionSearchQueries } from './session-search.js';
import { createSessionSwitchQueries, type SessionSwitchQueries } from './session-switch.js';
import { createSessionQueries, type SessionQueries } from './sessions.js';
import type { StoreLogger } from './store-logger.js';
import type { Store } from './types.js';

/** Every part of the store (one per module), its statements prepared on one connection. */
export interface StoreParts {
  inbox: InboxQueries;
  outbox: OutboxQueries;
  intents: SendIntentQueries;
  sessions: SessionQueries;
  prompts: SessionPromptQueries;
  usage: ModelCallQueries;
  credentials: CredentialQueries;
  messages: MessageQueries;
  chains: SessionSwitchQueries;
  search: SearchQueries;
  sessionSearch: SessionSearchQueries;
  scrubbing: ScrubQueries;
  cursors: CursorQueries;
  pairing: PairingQueries;
  jobs: JobQueries;
  runs: JobRunQueries;
  homes: HomeChannelQueries;
  approvals: ApprovalStore;
  chatState: ChatStateQueries;
  /** The full-text index's queue (indexed in batches; caught up before searches and on close). */
  searchIndex: SearchIndex;
}

/** Prepares every part's statements once, on the migrated connection `db`. */
export function prepareStoreParts(params: { db: Database.Database; clock: Clock; logger: StoreLogger }): StoreParts {
  const { db, clock, logger } = params;
  const inbox = createInboxQueries({ db, clock, logger });
  const outbox = createOutboxQueries({ db, clock });
  const intents = createSendIntentQueries({ db, clock });
  const sessions = createSessionQueries({ db, clock });
  const prompts = createSessionPromptQueries({ db });
  const usage = createModelCallQueries({ db, clock });
  const credentials = createCredentialQueries({ db, clock });
  const searchIndex = createSearchIndex({ db, logger });
  const messages = createMessageQueries({ db, clock, searchIndex });
  const chains = createSessionSwitchQueries({ db, sessions, messages, prompts });
  const find = createCandidateFinder({ db, searchIndex });
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
  return {
    inbox, outbox, intents, sessions, prompts, usage, credentials, messages, chains, search, sessionSearch,
    scrubbing, cursors, pairing, jobs, runs, homes, approvals, chatState, searchIndex,
  };
}

/** Wraps one store method, keeping its signature (openStore's wrapper: closed-store and disk-error handling). */
export type Live = <A extends unknown[], R>(operation: string, fn: (...args: A) => R) => (...args: A) => R;

/** What each method group below takes: the wrapper and the parts whose methods it wraps. */
interface WrapParams {
  live: Live;
  parts: StoreParts;
}

/** The turn journal's methods (inbox, outbox, send intents) and the adapters' cursors, wrapped. */
function journalMethods(params: WrapParams): InboxQueries & OutboxQueries & SendIntentQueries & CursorQueries {
  const { live, parts } = params;
  const { inbox, outbox, intents, cursors } = parts;
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
    getCursor: live('getCursor', cursors.getCursor),
    setCursor: live('setCursor', cursors.setCursor),
  };
}

/** The methods of sessions, their prompts, chains and chat state, and of the model calls and credentials they use, wrapped. */
function sessionMethods(
  params: WrapParams,
): SessionQueries & SessionPromptQueries & SessionSwitchQueries & ChatStateQueries & ModelCallQueries & CredentialQueries {
  const { live, parts } = params;
  const { sessions, prompts, chains, chatState, usage, credentials } = parts;
  return {
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
    chatVoiceMode: live('chatVoiceMode', chatState.chatVoiceMode),
    setChatVoiceMode: live('setChatVoiceMode', chatState.setChatVoiceMode),
    chatToldNoVision: live('chatToldNoVision', chatState.chatToldNoVision),
    setChatToldNoVision: live('setChatToldNoVision', chatState.setChatToldNoVision),
    reopenSession: live('reopenSession', chatState.reopenSession),
    sessionUsageByModel: live('sessionUsageByModel', chatState.sessionUsageByModel),
    recordModelCall: live('recordModelCall', usage.recordModelCall),
    sessionUsage: live('sessionUsage', usage.sessionUsage),
    lastPromptTokens: live('lastPromptTokens', usage.lastPromptTokens),
    credentialStates: live('credentialStates', credentials.credentialStates),
    recordCredentialUse: live('recordCredentialUse', credentials.recordCredentialUse),
    setCredentialCooldown: live('setCredentialCooldown', credentials.setCredentialCooldown),
  };
}

/** The stored history's methods (messages, search, scrubbing), wrapped. */
function historyMethods(params: WrapParams): MessageQueries & SearchQueries & SessionSearchQueries & ScrubQueries {
  const { live, parts } = params;
  const { messages, search, sessionSearch, scrubbing } = parts;
  return {
    appendMessage: live('appendMessage', messages.appendMessage),
    history: live('history', messages.history),
    historyStart: live('historyStart', messages.historyStart),
    latestAssistantMessages: live('latestAssistantMessages', messages.latestAssistantMessages),
    deleteTurnMessages: live('deleteTurnMessages', messages.deleteTurnMessages),
    countUserTurns: live('countUserTurns', messages.countUserTurns),
    hideMessages: live('hideMessages', messages.hideMessages),
    hiddenMessages: live('hiddenMessages', messages.hiddenMessages),
    search: live('search', search.search),
    searchSessions: live('searchSessions', sessionSearch.searchSessions),
    scrubStoredBatch: live('scrubStoredBatch', scrubbing.scrubStoredBatch),
    compactAfterScrub: live('compactAfterScrub', scrubbing.compactAfterScrub),
  };
}

/** The methods of what is let in: senders (pairing) and dangerous commands (approval rules), wrapped. */
function accessMethods(params: WrapParams): PairingQueries & ApprovalStore {
  const { live, parts } = params;
  const { pairing, approvals } = parts;
  return {
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
    approvalRules: live('approvalRules', approvals.approvalRules),
    addApprovalRule: live('addApprovalRule', approvals.addApprovalRule),
    removeApprovalRule: live('removeApprovalRule', approvals.removeApprovalRule),
  };
}

/** The scheduled jobs' methods (jobs, their runs, the home channels they deliver to), wrapped. */
function jobMethods(params: WrapParams): JobQueries & JobRunQueries & HomeChannelQueries {
  const { live, parts } = params;
  const { jobs, runs, homes } = parts;
  return {
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
  };
}

/** Every Store method but close: each part's methods wrapped by `live` under their own names. */
export function liveMethods(params: WrapParams): Omit<Store, 'close' | 'together'> {
  return {
    ...journalMethods(params),
    ...sessionMethods(params),
    ...historyMethods(params),
    ...accessMethods(params),
    ...jobMethods(params),
  };
}
