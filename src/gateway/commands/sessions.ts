import { formatWallTime } from '../../util/schedule/zoned-time.js';
import { shortSessionId } from '../../store/session-id.js';
import type { SessionRow, Store } from '../../store/types.js';
import { recentSessions, resumeSession } from '../sessions/resume.js';

/** Characters of a session's first message shown when it has no title. */
const FIRST_WORDS = 48;

/**
 * `/sessions`: this chat's recent conversations numbered newest first (the current one marked), cut to `maxLength`; a
 * compressed conversation is listed once, as the newest session of its chain.
 */
export function sessionsReply(params: { store: Store; sessionKey: string; timeZone: string; maxLength?: number | undefined }): string {
  const { store } = params;
  const sessions = recentSessions({ store, key: params.sessionKey });
  if (sessions.length === 0) return 'No conversations in this chat yet.';
  const current = store.activeSession({ key: params.sessionKey });
  const head = 'Conversations in this chat, newest first:';
  const foot = 'Resume one with /resume N (or its short id).';
  const lines = sessions.map((s, i) => sessionLine({ store, session: s, number: i + 1, current: s.id === current?.id, timeZone: params.timeZone }));
  const max = params.maxLength ?? 4000;
  // Drop the oldest lines until the reply fits the platform's message.
  while (lines.length > 1 && [head, ...lines, foot].join('\n').length > max) lines.pop();
  return [head, ...lines, foot].join('\n');
}

function sessionLine(params: { store: Store; session: SessionRow; number: number; current: boolean; timeZone: string }): string {
  const { session } = params;
  const name = session.title ?? firstWords({ store: params.store, sessionId: session.id }) ?? '(empty)';
  const when = formatWallTime({ atMs: session.startedAt, timeZone: params.timeZone });
  const count = `${session.messageCount} message${session.messageCount === 1 ? '' : 's'}`;
  return `${params.number}. ${shortSessionId({ id: session.id })} · ${name} · ${when} · ${count}${params.current ? ' ← current' : ''}`;
}

function firstWords(params: { store: Store; sessionId: string }): string | undefined {
  const first = params.store.historyStart({ sessionId: params.sessionId, limit: 5 }).find((m) => m.role === 'user');
  if (first === undefined) return undefined;
  const text = first.content.replace(/\s+/g, ' ').trim();
  return text.length > FIRST_WORDS ? `${text.slice(0, FIRST_WORDS - 1).trimEnd()}…` : text;
}

/** `/resume N`: that conversation becomes this chat's current one again; `before` runs just before the switch (stops the running answer, as /new does). */
export function resumeReply(params: { args: string; store: Store; sessionKey: string; before: () => void }): string {
  if (params.args.trim() === '') return 'Say which conversation: /resume N, with N from /sessions (or a short id).';
  const result = resumeSession({ store: params.store, key: params.sessionKey, ref: params.args, before: params.before });
  if (result.kind === 'not_found') return `Nothing to resume: ${result.why}. /sessions lists this chat's conversations.`;
  const via = result.named === undefined ? '' : ` (${shortSessionId({ id: result.named.id })} was compressed: the conversation goes on there)`;
  if (result.kind === 'current') return `Conversation ${shortSessionId({ id: result.session.id })}${via} is already the current one.`;
  const { session, previous } = result;
  const name = session.title === null ? '' : ` “${session.title}”`;
  const was = previous === undefined ? '' : ` The conversation you were in (${shortSessionId({ id: previous.id })}) is kept; /sessions lists it.`;
  return `Resumed conversation ${shortSessionId({ id: session.id })}${name}${via} (${session.messageCount} messages): your next message continues it.${was}`;
}
