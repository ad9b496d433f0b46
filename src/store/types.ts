import type { MessageEvent } from '../core/adapter.js';
import type { ApprovalStore } from './approval-store.js';
import type { JobStore } from './job-store.js';

/** Where an inbound message is in its life. */
export type InboxState = 'received' | 'processing' | 'done';

/** One journaled inbound message. */
export interface InboxRow {
  readonly id: number;
  readonly platform: string;
  readonly messageId: string;
  readonly sessionKey: string;
  readonly state: InboxState;
  readonly event: MessageEvent;
  /** How many times a turn started on it (a replay after a crash counts again). */
  readonly attempts: number;
  readonly receivedAt: number;
  readonly updatedAt: number;
}

/** One platform message sent for a turn (a turn is identified by its inbox row). */
export interface OutboxRow {
  readonly inboxId: number;
  /** 0-based position of this message within the turn's reply. */
  readonly seq: number;
  readonly platform: string;
  readonly chatId: string;
  readonly platformMessageId: string;
  /** Text the platform currently shows. */
  readonly text: string;
  /** `open` while it may still be edited, `final` once its text is complete. */
  readonly state: 'open' | 'final';
  readonly updatedAt: number;
}

/**
 * A send journaled before its platform call; removed when the message id is recorded (recordOutbound of the same
 * seq). One left behind means the process died while the call was in flight: the platform may or may not show it.
 */
export interface SendIntentRow {
  readonly inboxId: number;
  readonly seq: number;
  readonly platform: string;
  readonly chatId: string;
  /** Random marker sent with the message where the platform keeps one (Discord nonce, Slack metadata). */
  readonly nonce: string;
  /** The newest platform message id known in the chat before the send (the inbound message, or the previous part). */
  readonly afterId: string | null;
  /** The text sent. */
  readonly text: string;
  readonly createdAt: number;
}

/** A conversation with the agent; `/new` ends one and starts another with the same key. */
export interface SessionRow {
  readonly id: string;
  readonly key: string;
  readonly parentSessionId: string | null;
  readonly title: string | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly messageCount: number;
}

/** One layer of a session's system prompt and its size, in prompt order (identity, tool guidance, memory, ...). */
export interface PromptLayerSize {
  readonly name: string;
  readonly chars: number;
}

/** The system prompt a session was built with, sent unchanged with each of its model calls. */
export interface SessionPrompt {
  readonly text: string;
  readonly layers: readonly PromptLayerSize[];
  /**
   * The tools the session is offered beyond the built-in ones (its MCP servers' tools), frozen with its prompt: the
   * gateway's own text (src/mcp/snapshot.ts), kept as it is; absent: none.
   */
  readonly extraTools?: string;
}

/** Token usage of one model call as the endpoint reported it; null where it reported nothing. */
export interface ModelCallUsage {
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  /** Prompt tokens served from the provider's prefix cache (`prompt_tokens_details.cached_tokens`). */
  readonly cachedTokens: number | null;
}

/** What `recordModelCall` takes. */
export interface NewModelCall extends ModelCallUsage {
  readonly sessionId: string;
  readonly inboxId?: number | null;
  readonly model: string;
}

/** One API key's pool state, by fingerprint (the store never holds a key). */
export interface CredentialState {
  readonly fingerprint: string;
  /** Model calls made with the key. */
  readonly calls: number;
  /** Epoch ms until which the key is skipped, or null. */
  readonly cooldownUntil: number | null;
  /** Why it cools down (a failure reason such as out_of_credit), or null. */
  readonly cooldownReason: string | null;
}

/** A session's model calls added up. */
export interface SessionUsage {
  readonly calls: number;
  /** Calls whose endpoint reported no usage (not in the token sums). */
  readonly unreported: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number;
}

/** A session's model calls of one model added up (/usage prices each model apart). */
export interface ModelUsage extends SessionUsage {
  /** The model name the calls were answered by. */
  readonly model: string;
}

/** How much tool activity a chat shows (`display.tool_progress`, or the chat's own /verbose choice). */
export type ToolProgressSetting = 'all' | 'new' | 'off';

/** When a chat's replies are also spoken (/voice): never, when the user spoke (a voice note), or every reply. */
export type VoiceMode = 'off' | 'on' | 'tts';

/** Roles the chat history holds. */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** One tool call as the model asked for it (OpenAI shape). */
export interface StoredToolCall {
  readonly id: string;
  readonly name: string;
  /** JSON text of the arguments, exactly as the model produced it. */
  readonly arguments: string;
}

/** One history entry. */
export interface StoredMessage {
  readonly id: number;
  readonly sessionId: string;
  /** Inbox row of the turn that produced it, when there was one. */
  readonly inboxId: number | null;
  readonly role: MessageRole;
  readonly content: string;
  readonly toolCalls: readonly StoredToolCall[] | null;
  readonly toolCallId: string | null;
  readonly toolName: string | null;
  readonly createdAt: number;
}

/** What `appendMessage` takes. */
export interface NewMessage {
  readonly sessionId: string;
  readonly inboxId?: number | null;
  readonly role: MessageRole;
  readonly content: string;
  readonly toolCalls?: readonly StoredToolCall[] | null;
  readonly toolCallId?: string | null;
  readonly toolName?: string | null;
}

/** One full-text search hit. */
export interface SearchHit {
  readonly sessionId: string;
  readonly sessionKey: string;
  readonly messageId: number;
  readonly role: MessageRole;
  /** The matching text with the match marked by [ and ]. */
  readonly snippet: string;
  readonly createdAt: number;
}

/** What `searchSessions` takes. */
export interface SessionSearchParams {
  /** FTS5 query syntax; plain words work (invalid syntax falls back to the words as phrases). */
  readonly query: string;
  /** Most sessions returned, best first. */
  readonly sessions: number;
  /** Most matching messages kept per session (its best ones, returned in conversation order). */
  readonly matchesPerSession: number;
  /**
   * A session left out of the results (the conversation asking), with its delegate_task children (sessions it is the
   * parent of under another key): their summaries are already in it, and their transcripts are kept out of it on purpose.
   */
  readonly excludeSessionId?: string;
}

/** A message as a session search returns it. */
export interface SearchedMessage {
  readonly id: number;
  readonly role: MessageRole;
  readonly content: string;
  readonly toolName: string | null;
  readonly createdAt: number;
}

/** One matching message with the messages right before and after it in its session. */
export interface SessionSearchMatch {
  readonly message: SearchedMessage;
  readonly before: SearchedMessage | null;
  readonly after: SearchedMessage | null;
}

/** One session a search found, with its best matches. */
export interface SessionSearchGroup {
  readonly session: SessionRow;
  readonly matches: readonly SessionSearchMatch[];
  /** Its matching messages among the candidates ranked. */
  readonly hits: number;
}

/** What `searchSessions` found. */
export interface SessionSearchResult {
  /** Best session first. */
  readonly groups: readonly SessionSearchGroup[];
  /** Matching messages ranked (at most the candidate bound). */
  readonly candidates: number;
  /** True when more messages matched than the bound: only the newest ones were ranked. */
  readonly truncated: boolean;
}

/** The stored parts a secret scrub rewrites: message texts and tool-call arguments, session titles, answered inbox rows. */
export type ScrubbedPart = 'messages' | 'sessions' | 'inbox' | 'jobs' | 'job_runs';

/** What one scrub batch did. */
export interface ScrubBatch {
  /**
   * The cursor for the next batch's `afterRowId`: the last rowid looked at (for `jobs`, which have no rowid, how many
   * rows were looked at so far); null when no row was left after `afterRowId`.
   */
  readonly lastRowId: number | null;
  /** How many rows it rewrote. */
  readonly changed: number;
}

/** A pairing code an unknown sender got; the owner approves it with `hermes pairing approve`. */
export interface PairingRequest {
  readonly platform: string;
  /** The code, upper case, as the sender was told it. */
  readonly code: string;
  readonly senderId: string;
  /** Display name when the platform gave one (for the owner to read; never used to authorize). */
  readonly senderName: string | null;
  /** Chat the request came from (where the gateway can tell the sender they were let in). */
  readonly chatId: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** A sender the owner let in through pairing. */
export interface ApprovedSender {
  readonly platform: string;
  readonly senderId: string;
  readonly senderName: string | null;
  readonly approvedAt: number;
}

/**
 * The gateway's durable state, behind a narrow interface so another backend can replace SQLite.
 * Adapters never touch it directly. All methods are synchronous (better-sqlite3). The scheduled-jobs part is in
 * job-store.ts, the approval rules in approval-store.ts.
 */
export interface Store extends JobStore, ApprovalStore {
  /**
   * Runs `fn`, which must be synchronous, with all its store calls in one transaction: several writes that belong to
   * one step cost one commit (each commit writes the WAL and FTS5 segments), and a failure leaves none of them.
   */
  together<T>(fn: () => T): T;

  // --- inbox journal ---
  /**
   * Journals an inbound message. `inserted: false` means it was seen before (a redelivery). `done: true` journals it
   * already done (never replayed): the journal row of a send that is no turn (a job's delivery to a further target).
   */
  recordInbound(params: { event: MessageEvent; sessionKey: string; done?: boolean }): { inserted: boolean; row: InboxRow };
  /** Moves an inbox row to a new state; moving to `processing` counts an attempt. */
  setInboxState(params: { inboxId: number; state: InboxState }): void;
  /** Rows not yet done, oldest first (for replay after a restart); damaged rows are logged and skipped. */
  pendingInbound(): InboxRow[];
  /** One inbox row. */
  getInbound(params: { inboxId: number }): InboxRow | undefined;
  /**
   * Forgets done inbox rows last touched before `before` (ms): the dedupe window only needs recent ones.
   * Their turns' outbox rows go too; history messages stay. Returns how many rows were removed.
   */
  pruneInbound(params: { before: number }): number;

  // --- outbox ---
  /** Records a sent message or a new text for it (upsert on inboxId+seq). */
  recordOutbound(params: Omit<OutboxRow, 'updatedAt'>): void;
  /** Messages sent for one turn, by seq. */
  outboundFor(params: { inboxId: number }): OutboxRow[];
  /** Journals a send before its platform call (upsert on inboxId+seq). */
  recordSendIntent(params: Omit<SendIntentRow, 'createdAt'>): void;
  /** Sends of one turn whose platform call may not have returned (no message id recorded for their seq), by seq. */
  sendIntentsFor(params: { inboxId: number }): SendIntentRow[];
  /** Platform message ids the outbox holds for one chat, any turn (messages a replay must never adopt as another's). */
  outboundIdsInChat(params: { platform: string; chatId: string }): string[];
  /** Marks a turn complete: its outbox rows final and its inbox row (and rows `merged` into it) done, in one transaction. */
  completeTurn(params: { inboxId: number; merged?: readonly number[] }): void;

  // --- sessions ---
  /** The open session for a key, if any. */
  activeSession(params: { key: string }): SessionRow | undefined;
  /** Starts a session for a key (ending none). */
  createSession(params: { key: string; parentSessionId?: string | null; title?: string | null }): SessionRow;
  /** Ends a session; it stays in the store. */
  endSession(params: { sessionId: string }): void;
  /** Sets a session's title. */
  setSessionTitle(params: { sessionId: string; title: string }): void;
  /** Sessions, newest first. */
  listSessions(params: { limit: number; key?: string }): SessionRow[];
  /** One session. */
  getSession(params: { sessionId: string }): SessionRow | undefined;
  /** The system prompt stored with a session, if one was built for it. */
  sessionPrompt(params: { sessionId: string }): SessionPrompt | undefined;
  /** Stores a session's system prompt (replacing any earlier one). */
  setSessionPrompt(params: { sessionId: string; prompt: SessionPrompt }): void;
  /**
   * Continues an open session in a new one, atomically (all or nothing): ends `fromSessionId`, starts a session with
   * its key and title whose parent is it, appends `messages` to the new session in order and stores its `prompt`.
   * Throws, changing nothing, when the old session is unknown or already ended, or (SessionChangedError) when
   * `ifLastMessageId` is given and is not the id of the old session's newest message (null: it must have none), so a
   * caller that compressed what it read never drops messages added meanwhile. Returns the new session.
   */
  continueSession(params: {
    fromSessionId: string;
    messages: readonly Omit<NewMessage, 'sessionId'>[];
    prompt: SessionPrompt;
    ifLastMessageId?: number | null;
  }): SessionRow;

  /** The model a session's requests use, chosen with /model (null: the configured one). */
  sessionModel(params: { sessionId: string }): string | null;
  /** Sets (or, with null, clears) a session's chosen model; throws when there is no such session. */
  setSessionModel(params: { sessionId: string; model: string | null }): void;
  /** A chat's own tool-progress choice (/verbose), by session key; undefined: the configured default. */
  chatToolProgress(params: { key: string }): ToolProgressSetting | undefined;
  /** Stores (or, with null, clears) a chat's tool-progress choice. */
  setChatToolProgress(params: { key: string; mode: ToolProgressSetting | null }): void;
  /** A chat's /voice choice, by session key; undefined: none made (off). */
  chatVoiceMode(params: { key: string }): VoiceMode | undefined;
  /** Stores (or, with null, clears) a chat's /voice choice. */
  setChatVoiceMode(params: { key: string; mode: VoiceMode | null }): void;
  /** Whether the chat was told its model cannot see images. */
  chatToldNoVision(params: { key: string }): boolean;
  /** Records that the chat was told its model cannot see images (now). */
  setChatToldNoVision(params: { key: string }): void;
  /**
   * Makes an earlier session its key's open one again (/resume), atomically: every other open session of the key ends,
   * the session's end is cleared. Throws when there is no such session. Returns it, open.
   */
  reopenSession(params: { sessionId: string }): SessionRow;

  // --- model usage ---
  /** Records one model call's usage with its session. */
  recordModelCall(params: NewModelCall): void;
  /**
   * A session's model calls added up (zeros when it has none); `withChildren`: its child sessions' too (sessions it is
   * the parent of under another key: delegate_task's sub-agents, not the session a compression or /new continued in).
   */
  sessionUsage(params: { sessionId: string; withChildren?: boolean }): SessionUsage;
  /** Like sessionUsage, one entry per model (most calls first): /usage prices each model with its own prices. */
  sessionUsageByModel(params: { sessionId: string; withChildren?: boolean }): ModelUsage[];
  /** The prompt tokens the endpoint reported for the session's latest model call that reported them (null: none). */
  lastPromptTokens(params: { sessionId: string }): number | null;

  // --- credential pool ---
  /** The stored state of these key fingerprints (keys never seen have no row). */
  credentialStates(params: { fingerprints: readonly string[] }): CredentialState[];
  /** Counts one model call made with a key. */
  recordCredentialUse(params: { fingerprint: string }): void;
  /** Sets (or, with until null, clears) a key's cooldown. */
  setCredentialCooldown(params: { fingerprint: string; until: number | null; reason: string | null }): void;

  // --- messages ---
  /** Appends a history entry and indexes its text. */
  appendMessage(message: NewMessage): StoredMessage;
  /** A session's history in order; with `limit`, only its newest `limit` messages (still in order). */
  history(params: { sessionId: string; limit?: number }): StoredMessage[];
  /** A session's first `limit` messages, in order (where a compressed session's head and summary are). */
  historyStart(params: { sessionId: string; limit: number }): StoredMessage[];
  /** A session's newest `limit` assistant messages (one per model call), newest first: what the last calls did, without reading the history. */
  latestAssistantMessages(params: { sessionId: string; limit: number }): StoredMessage[];
  /** How many turns (user messages with an inbox id, each id once) the sessions hold: the background review's count of a compression chain. */
  countUserTurns(params: { sessionIds: readonly string[] }): number;
  /** Removes a turn's history entries (used when a crashed turn is replayed). */
  deleteTurnMessages(params: { inboxId: number }): number;
  /**
   * Hides a session's messages from `fromMessageId` on (/undo, /retry): no history, count, search or compression reads
   * them again; `hiddenBy` is the command's inbox id. Returns how many were hidden (0 when already hidden).
   */
  hideMessages(params: { sessionId: string; fromMessageId: number; hiddenBy: number }): number;
  /** The messages one command (its inbox id) hid, in order. */
  hiddenMessages(params: { hiddenBy: number }): StoredMessage[];
  /**
   * Single messages matching a query, best first, each with a marked snippet (FTS5 query syntax; plain words work).
   * Bounded like `searchSessions`: only the newest matching messages (the same fixed number) are ranked.
   */
  search(params: { query: string; limit: number }): SearchHit[];
  /**
   * Past conversations matching a query, grouped by session, best first. The work is bounded for any query: only the
   * newest matching messages (a fixed number) are ranked, so a word in every message costs what a rare one does.
   */
  searchSessions(params: SessionSearchParams): SessionSearchResult;

  /**
   * Rewrites up to `limit` rows of `part` after `afterRowId` (by rowid) with `scrub` applied, in one transaction
   * (the FTS index follows); for history written before a secret was known.
   */
  scrubStoredBatch(params: { part: ScrubbedPart; afterRowId: number; limit: number; scrub: (text: string) => string }): ScrubBatch;
  /** After a scrub rewrote rows: merges the FTS index and checkpoints the WAL, so no copy of the old text stays behind. */
  compactAfterScrub(): void;

  // --- key/value cursors (adapters' resume points, command-menu hashes, ...) ---
  getCursor(params: { name: string }): string | undefined;
  setCursor(params: { name: string; value: string }): void;

  // --- sender pairing (times in ms since the epoch) ---
  /**
   * Stores a pairing request, replacing any older one of the same sender on that platform.
   * Returns undefined, storing nothing, when that platform already has a request with this code.
   */
  createPairingRequest(params: {
    platform: string;
    code: string;
    senderId: string;
    senderName?: string | null;
    chatId: string;
    expiresAt: number;
  }): PairingRequest | undefined;
  /** Requests not expired at `now`, oldest first; all platforms unless one is given. */
  pairingRequests(params: { platform?: string; now: number }): PairingRequest[];
  /** The sender's request when it has not expired at `now`. */
  pairingRequestForSender(params: { platform: string; senderId: string; now: number }): PairingRequest | undefined;
  /** The request with this code whether or not it expired (so a caller can tell "expired" from "unknown"). */
  findPairingRequest(params: { platform: string; code: string }): PairingRequest | undefined;
  /** Removes and returns the request with this code; undefined (removing nothing) when there is none or it expired. */
  takePairingRequest(params: { platform: string; code: string; now: number }): PairingRequest | undefined;
  /** Lets a sender in (again: the name and time are updated) and drops any request it still has. */
  approveSender(params: { platform: string; senderId: string; senderName?: string | null }): ApprovedSender;
  /** Whether the owner let this sender in. */
  isApprovedSender(params: { platform: string; senderId: string }): boolean;
  /** Approved senders by platform, then approval time; all platforms unless one is given. */
  approvedSenders(params: { platform?: string }): ApprovedSender[];
  /** Takes a sender's approval away; false when it had none. */
  revokeSender(params: { platform: string; senderId: string }): boolean;
  /** Deletes requests that expired at or before `now`; returns how many. */
  prunePairingRequests(params: { now: number }): number;

  /** Closes the database (checkpointing the WAL). Idempotent. */
  close(): void;
}
