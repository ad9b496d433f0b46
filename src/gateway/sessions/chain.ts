import { isSummaryMessage } from '../../agent/compress/summary-message.js';
import type { SessionRow, Store } from '../../store/types.js';

/** Stored messages read from a session's start to tell whether it began from a compression (its head and summary lie within). */
const HEAD_SCAN = 400;
/** Most sessions of one compression chain followed. */
const MAX_CHAIN_DEPTH = 50;

/**
 * The session `session` continues when it began from a compression (a parent, and a summary message among its first
 * messages), else null. `/new` also sets a parent but starts without a summary: that is a new conversation.
 */
export function compressedFrom(params: { store: Store; session: SessionRow }): string | null {
  const { store, session } = params;
  if (session.parentSessionId === null) return null;
  const head = store.historyStart({ sessionId: session.id, limit: HEAD_SCAN });
  return head.some((m) => m.role === 'user' && isSummaryMessage({ role: 'user', content: m.content })) ? session.parentSessionId : null;
}

/**
 * The conversations among `sessions` (newest first, as listSessions gives them), lazily: each compression chain once,
 * as its newest session; the sessions a compression ended (they go on in a child) are left out.
 */
export function* conversationsIn(params: { store: Store; sessions: readonly SessionRow[] }): Generator<SessionRow, void, undefined> {
  const continued = new Set<string>();
  for (const session of params.sessions) {
    // A child is newer than its parent: by the time the parent comes, the child has marked it.
    const parent = compressedFrom({ store: params.store, session });
    if (parent !== null) continued.add(parent);
    if (!continued.has(session.id)) yield session;
  }
}

/** The first `limit` conversations among `sessions` (see conversationsIn). */
export function conversationsOf(params: { store: Store; sessions: readonly SessionRow[]; limit: number }): SessionRow[] {
  const shown: SessionRow[] = [];
  if (params.limit <= 0) return shown;
  for (const session of conversationsIn(params)) {
    shown.push(session);
    if (shown.length >= params.limit) break;
  }
  return shown;
}

/** The newest session of the compression chain `session` belongs to (itself when no compression continued it), among `sessions`. */
export function newestOfChain(params: { store: Store; session: SessionRow; sessions: readonly SessionRow[] }): SessionRow {
  let current = params.session;
  for (let depth = 0; depth < MAX_CHAIN_DEPTH; depth += 1) {
    const from = current.id;
    const child = params.sessions.find((s) => s.parentSessionId === from && compressedFrom({ store: params.store, session: s }) === from);
    if (child === undefined) return current;
    current = child;
  }
  return current;
}
