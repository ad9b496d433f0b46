import { escapePart } from '../gateway/session-key.js';
import { shortSessionId } from '../store/session-id.js';
import type { SessionRow, Store } from '../store/types.js';

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

/** The stored session --resume names: by full id, short id or an id's start; bare, the most recent ended one. */
function findResumed(params: { sessions: readonly SessionRow[]; id: string | undefined }): SessionRow | string {
  const { sessions, id } = params;
  if (id === undefined) {
    const last = sessions.find((s) => s.endedAt !== null && s.messageCount > 0);
    return last ?? 'No earlier conversation of this chat to resume.';
  }
  const wanted = id.trim().toLowerCase();
  const matches = sessions.filter((s) => s.id === wanted || shortSessionId({ id: s.id }) === wanted || (wanted.length >= 4 && s.id.replace(/-/g, '').startsWith(wanted.replace(/-/g, ''))));
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  if (matches.length > 1) return `Session id "${id}" is ambiguous: ${matches.map((s) => shortSessionId({ id: s.id })).join(', ')}.`;
  return `No conversation "${id}" in this chat (hermes sessions list shows them).`;
}

/**
 * Picks the conversation `hermes chat` starts in, through the store: continue says which one continues; --new ends it
 * and starts a fresh one (as /new does); --resume makes a stored session current again — the current one is ended
 * (kept) and a session continuing the resumed one is started with its history and system prompt.
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
  const found = findResumed({ sessions: store.listSessions({ limit: resumeScan, key }), id: choice.id });
  if (typeof found === 'string') return { ok: false, message: found };
  if (found.id === active?.id) return { ok: true, line: `Continuing conversation ${described(found)} (it is the current one).` };
  if (active !== undefined) store.endSession({ sessionId: active.id });
  const next = store.createSession({ key, parentSessionId: found.id, title: found.title });
  for (const message of store.history({ sessionId: found.id })) {
    store.appendMessage({
      sessionId: next.id,
      role: message.role,
      content: message.content,
      toolCalls: message.toolCalls,
      toolCallId: message.toolCallId,
      toolName: message.toolName,
    });
  }
  const prompt = store.sessionPrompt({ sessionId: found.id });
  if (prompt !== undefined) store.setSessionPrompt({ sessionId: next.id, prompt });
  return { ok: true, line: `Resumed conversation ${described(found)}.` };
}
