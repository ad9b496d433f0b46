import { escapePart } from '../core/session-key.js';
import { shortSessionId } from '../store/session-id.js';
import type { SessionRow, Store } from '../store/types.js';
import { resumeSession } from '../gateway/sessions/resume.js';
import { conversationsIn } from '../gateway/sessions/chain.js';

/** Which conversation `hermes chat` talks in: the current one (default), a fresh one (--new), or a stored one (--resume [ID]). */
export type ChatSessionChoice = { readonly kind: 'continue' } | { readonly kind: 'new' } | { readonly kind: 'resume'; readonly id?: string };

/** What choosing the conversation did: the line the chat starts with, or why it could not. */
export type ChatSessionResult = { readonly ok: true; readonly line: string } | { readonly ok: false; readonly message: string };

/** Most stored sessions of the chat looked through for --resume. */
const resumeScan = 1000;

/** The session key of `hermes chat` in a profile (what sessionKeyFor gives the terminal's one local conversation). */
export function chatSessionKey(params: { profile: string }): string {
  return [params.profile, 'terminal', 'local'].map(escapePart).join(':');
}

/** "abc12345 (12 messages)" */
function described(session: SessionRow): string {
  const title = session.title ? ` “${session.title}”` : '';
  return `${shortSessionId({ id: session.id })}${title} (${session.messageCount} message${session.messageCount === 1 ? '' : 's'})`;
}

/** The most recent ended conversation of the chat that holds messages (what a bare --resume brings back); a compressed one is never it. */
function lastEnded(params: { store: Store; key: string }): SessionRow | undefined {
  const sessions = params.store.listSessions({ limit: resumeScan, key: params.key });
  for (const s of conversationsIn({ store: params.store, sessions })) if (s.endedAt !== null && s.messageCount > 0) return s;
  return undefined;
}

/**
 * Picks the conversation `hermes chat` starts in, through the store: continue says which one continues; --new ends it
 * and starts a fresh one (as /new does); --resume makes a stored session current again (resumeSession, as /resume
 * does) — the current one is ended (kept).
 */
export function openChatSession(params: { store: Store; key: string; choice: ChatSessionChoice }): ChatSessionResult {
  const { store, key, choice } = params;
  const active = store.activeSession({ key });
  if (choice.kind === 'continue') {
    if (active === undefined || active.messageCount === 0) return { ok: true, line: 'A new conversation starts with your first message.' };
    return { ok: true, line: `Continuing conversation ${described(active)} — --new for a fresh one.` };
  }
  if (choice.kind === 'new') {
    if (active !== undefined) store.endSession({ sessionId: active.id });
    const next = store.createSession({ key, parentSessionId: active?.id ?? null });
    return { ok: true, line: `Started a new conversation (${shortSessionId({ id: next.id })}); the previous one is kept.` };
  }
  const ref = choice.id ?? lastEnded({ store, key })?.id;
  if (ref === undefined) return { ok: false, message: 'No earlier conversation of this chat to resume.' };
  // The same lookup and switch as the chat's /resume: the stored session becomes the open one again (the open one ends).
  const result = resumeSession({ store, key, ref });
  if (result.kind === 'not_found') return { ok: false, message: `No conversation "${ref}" in this chat: ${result.why}.` };
  const via = result.named === undefined ? '' : ` — ${shortSessionId({ id: result.named.id })} was compressed and goes on there`;
  if (result.kind === 'current') return { ok: true, line: `Continuing conversation ${described(result.session)} (it is the current one${via}).` };
  return { ok: true, line: `Resumed conversation ${described(result.session)}${via}.` };
}
