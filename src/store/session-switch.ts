import type Database from 'better-sqlite3';
import { SessionChangedError } from './errors.js';
import type { MessageQueries } from './messages.js';
import type { SessionPromptQueries } from './session-prompts.js';
import type { SessionQueries } from './sessions.js';
import type { Store } from './types.js';

/** The session-chain part of the Store. */
export type SessionSwitchQueries = Pick<Store, 'continueSession'>;

/**
 * `continueSession` in one SQLite transaction over the session, message and prompt statements: a failure at any
 * step rolls every step back (the old session stays open and untouched, no half-built new one).
 */
export function createSessionSwitchQueries(params: {
  db: Database.Database;
  sessions: SessionQueries;
  messages: MessageQueries;
  prompts: SessionPromptQueries;
}): SessionSwitchQueries {
  const { db, sessions, messages, prompts } = params;
  // The model chosen with /model stays with the conversation when a compression continues it.
  const keepModel = db.prepare<{ from: string; to: string }>('UPDATE sessions SET model = (SELECT model FROM sessions WHERE id = @from) WHERE id = @to');
  const lastId = db.prepare<[string], { id: number | null }>('SELECT max(id) AS id FROM messages WHERE session_id = ? AND hidden_by IS NULL');
  const run = db.transaction((p: Parameters<Store['continueSession']>[0]) => {
    const old = sessions.getSession({ sessionId: p.fromSessionId });
    if (old === undefined) throw new Error(`cannot continue session ${p.fromSessionId}: no such session`);
    if (old.endedAt !== null) throw new Error(`cannot continue session ${p.fromSessionId}: it has ended`);
    if (p.ifLastMessageId !== undefined && (lastId.get(old.id)?.id ?? null) !== p.ifLastMessageId) throw new SessionChangedError({ sessionId: old.id });
    sessions.endSession({ sessionId: old.id });
    const next = sessions.createSession({ key: old.key, parentSessionId: old.id, title: old.title });
    keepModel.run({ from: old.id, to: next.id });
    for (const message of p.messages) messages.appendMessage({ ...message, sessionId: next.id });
    prompts.setSessionPrompt({ sessionId: next.id, prompt: p.prompt });
    return { ...next, messageCount: p.messages.length };
  });
  return { continueSession: (p) => run.immediate(p) };
}
