import { isSummaryMessage } from '../../agent/compress/summary-message.js';
import type { SessionRow, Store, StoredMessage } from '../../store/types.js';

/** A session's last exchange: its last turn's user message and everything after it (what /undo and /retry take back). */
export interface LastExchange {
  /** The first message of the exchange: the user message that started the turn. */
  readonly from: StoredMessage;
  /** The exchange's messages, in order (the user message first). */
  readonly messages: readonly StoredMessage[];
}

/**
 * The last exchange of the session's visible history: from the last user message on, reaching back to the first
 * message of that user message's turn (so text steered into the turn goes with it). A compression summary is never
 * part of one: a conversation whose last user message is its summary has no exchange left to take back.
 */
export function lastExchange(params: { store: Pick<Store, 'history'>; sessionId: string }): LastExchange | undefined {
  const history = params.store.history({ sessionId: params.sessionId });
  let start = -1;
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]?.role === 'user') {
      start = i;
      break;
    }
  }
  const last = history[start];
  if (last === undefined || isSummary(last)) return undefined;
  // The turn's first message: steered messages carry the turn's inbox id, as its first user message does.
  if (last.inboxId !== null) {
    const first = history.findIndex((m) => m.inboxId === last.inboxId);
    const candidate = history[first];
    if (candidate !== undefined && candidate.role === 'user' && !isSummary(candidate)) start = first;
  }
  const from = history[start];
  if (from === undefined) return undefined;
  return { from, messages: history.slice(start) };
}

/**
 * Hides the exchange under the command's inbox id (`hiddenBy`) and returns how many messages of the session it hid.
 * When the session continues a compressed one, the exchange's originals there (the compression copied them into
 * this session's tail) are hidden too, so session_search, which reads the ended session, does not bring them back:
 * a turn's messages by its inbox id, a copied message (no inbox id) by its text, each from there to the old session's end.
 */
export function hideExchange(params: { store: Pick<Store, 'history' | 'hideMessages' | 'getSession'>; session: SessionRow; exchange: LastExchange; hiddenBy: number }): number {
  const { store, session, exchange, hiddenBy } = params;
  const hidden = store.hideMessages({ sessionId: session.id, fromMessageId: exchange.from.id, hiddenBy });
  const parent = session.parentSessionId === null ? undefined : store.getSession({ sessionId: session.parentSessionId });
  // A /new session's parent (same key too) shares no turn with it, and a message without inbox id is only ever a
  // compression's copy: there the lookups below find nothing. A delegate child's parent has another key.
  if (parent !== undefined && parent.key === session.key) {
    const from = exchange.from;
    const older = store.history({ sessionId: parent.id });
    const original = from.inboxId !== null ? older.find((m) => m.inboxId === from.inboxId) : older.findLast((m) => m.role === 'user' && m.content === from.content);
    if (original !== undefined) store.hideMessages({ sessionId: parent.id, fromMessageId: original.id, hiddenBy });
  }
  return hidden;
}

function isSummary(message: StoredMessage): boolean {
  return isSummaryMessage({ role: 'user', content: message.content });
}

/** A short quote of a message for a reply: its first line, cut to `max` characters. */
export function shortQuote(params: { text: string; max?: number }): string {
  const max = params.max ?? 60;
  const line = params.text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
