import { shortSessionId } from '../../store/session-id.js';
import type { SessionRow, Store } from '../../store/types.js';
import { conversationsOf, newestOfChain } from './chain.js';

/** How many of a chat's sessions /sessions lists and `/resume N` counts in. */
export const RECENT_SESSIONS = 10;
/** How many of a chat's sessions a short id is looked up in (and /sessions reads to list its conversations). */
const ID_LOOKUP = 500;

/** A chat's recent conversations, newest first (what /sessions numbers 1..N): each compression chain once, as its newest session. */
export function recentSessions(params: { store: Store; key: string; limit?: number }): SessionRow[] {
  const limit = params.limit ?? RECENT_SESSIONS;
  return conversationsOf({ store: params.store, sessions: params.store.listSessions({ key: params.key, limit: ID_LOOKUP }), limit });
}

/**
 * Which session a `/resume` reference names: a number from /sessions, or a (short) session id of this chat; `named` is
 * the session the id named when a compression continued it in `session` (the newest of its chain).
 */
export type SessionLookup = { readonly kind: 'found'; readonly session: SessionRow; readonly named?: SessionRow } | { readonly kind: 'not_found'; readonly why: string };

/** Finds the session `ref` names among this key's sessions ("2" = the second newest conversation; "a1b2c3d4" or a full id). */
export function findSession(params: { store: Store; key: string; ref: string }): SessionLookup {
  const ref = params.ref.trim().toLowerCase();
  if (ref === '') return { kind: 'not_found', why: 'no session named' };
  if (/^\d{1,3}$/.test(ref)) {
    const recent = recentSessions({ store: params.store, key: params.key });
    const index = Number(ref);
    const session = recent[index - 1];
    if (session === undefined || index < 1) return { kind: 'not_found', why: recent.length === 0 ? 'this chat has no conversations yet' : `there is no conversation ${ref} (1 to ${recent.length})` };
    return { kind: 'found', session };
  }
  const all = params.store.listSessions({ key: params.key, limit: ID_LOOKUP });
  const matches = all.filter((s) => s.id.toLowerCase() === ref || shortSessionId({ id: s.id }) === ref.replace(/-/g, '') || (ref.length >= 4 && shortSessionId({ id: s.id }).startsWith(ref)));
  if (matches.length === 1 && matches[0] !== undefined) {
    // A session a compression ended goes on in its chain's newest session: that is the conversation to resume.
    const named = matches[0];
    const session = newestOfChain({ store: params.store, session: named, sessions: all });
    return session.id === named.id ? { kind: 'found', session } : { kind: 'found', session, named };
  }
  if (matches.length > 1) return { kind: 'not_found', why: `${ref} matches ${matches.length} conversations; give more of its id` };
  return { kind: 'not_found', why: `no conversation of this chat has the id ${ref}` };
}

/**
 * How a resume ended: the session is the key's open one now (`previous`: the one that ended for it), it already was, or
 * none matched; `named`: the compressed session the reference named, when the conversation goes on in `session`.
 */
export type ResumeResult =
  | { readonly kind: 'resumed'; readonly session: SessionRow; readonly previous: SessionRow | undefined; readonly named?: SessionRow }
  | { readonly kind: 'current'; readonly session: SessionRow; readonly named?: SessionRow }
  | { readonly kind: 'not_found'; readonly why: string };

/**
 * Makes the session `ref` names this key's open one again (the open one ends): the next turn's history is its messages.
 * `before` runs once the session is found, just before the switch. Shared by the chat's `/resume` and the terminal's
 * `hermes chat --resume`.
 */
export function resumeSession(params: { store: Store; key: string; ref: string; before?: () => void }): ResumeResult {
  const found = findSession(params);
  if (found.kind === 'not_found') return found;
  const named = found.named === undefined ? {} : { named: found.named };
  const current = params.store.activeSession({ key: params.key });
  if (current?.id === found.session.id) return { kind: 'current', session: current, ...named };
  params.before?.();
  const session = params.store.reopenSession({ sessionId: found.session.id });
  return { kind: 'resumed', session, previous: current, ...named };
}
