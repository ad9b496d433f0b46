import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { newSessionId } from './session-id.js';
import type { SessionRow, Store } from './types.js';

/** A session row with its message count, as SQLite returns it. */
export interface SessionRecord {
  id: string;
  key: string;
  parent_session_id: string | null;
  title: string | null;
  started_at: number;
  ended_at: number | null;
  message_count: number;
}

/** Maps a stored row to the contract's camelCase shape. */
export function toSessionRow(record: SessionRecord): SessionRow {
  return {
    id: record.id,
    key: record.key,
    parentSessionId: record.parent_session_id,
    title: record.title,
    startedAt: record.started_at,
    endedAt: record.ended_at,
    messageCount: record.message_count,
  };
}

/** Columns every session query selects (not the stored prompt: lists stay light). `rowid` breaks ties between sessions started in the same millisecond. */
export const sessionColumns = `s.id, s.key, s.parent_session_id, s.title, s.started_at, s.ended_at, (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.hidden_by IS NULL) AS message_count`;
const newestFirst = 'ORDER BY s.started_at DESC, s.rowid DESC';

/** The sessions' part of the Store. */
export type SessionQueries = Pick<
  Store,
  'activeSession' | 'createSession' | 'endSession' | 'setSessionTitle' | 'listSessions' | 'getSession'
>;

/** Prepares the session statements once and returns the methods that use them. */
export function createSessionQueries(params: { db: Database.Database; clock: Clock }): SessionQueries {
  const { db, clock } = params;
  const active = db.prepare<[string], SessionRecord>(
    `SELECT ${sessionColumns} FROM sessions s WHERE s.key = ? AND s.ended_at IS NULL ${newestFirst} LIMIT 1`,
  );
  const byId = db.prepare<[string], SessionRecord>(`SELECT ${sessionColumns} FROM sessions s WHERE s.id = ?`);
  const list = db.prepare<[number], SessionRecord>(`SELECT ${sessionColumns} FROM sessions s ${newestFirst} LIMIT ?`);
  const listByKey = db.prepare<[string, number], SessionRecord>(
    `SELECT ${sessionColumns} FROM sessions s WHERE s.key = ? ${newestFirst} LIMIT ?`,
  );
  const insert = db.prepare<{ id: string; key: string; parent: string | null; title: string | null; now: number }>(
    `INSERT INTO sessions (id, key, parent_session_id, title, started_at, ended_at)
     VALUES (@id, @key, @parent, @title, @now, NULL)`,
  );
  // Ending twice keeps the first end time.
  const end = db.prepare<{ id: string; now: number }>(
    'UPDATE sessions SET ended_at = coalesce(ended_at, @now) WHERE id = @id',
  );
  const retitle = db.prepare<{ id: string; title: string }>('UPDATE sessions SET title = @title WHERE id = @id');

  /** Throws when an update matched no session. */
  const expectOne = (changes: number, what: string, sessionId: string): void => {
    if (changes === 0) throw new Error(`cannot ${what} session ${sessionId}: no such session`);
  };

  return {
    activeSession: ({ key }) => {
      const record = active.get(key);
      return record === undefined ? undefined : toSessionRow(record);
    },
    createSession: ({ key, parentSessionId = null, title = null }) => {
      const now = clock.now();
      const id = newSessionId({ now });
      insert.run({ id, key, parent: parentSessionId, title, now });
      return { id, key, parentSessionId, title, startedAt: now, endedAt: null, messageCount: 0 };
    },
    endSession: ({ sessionId }) => expectOne(end.run({ id: sessionId, now: clock.now() }).changes, 'end', sessionId),
    setSessionTitle: ({ sessionId, title }) =>
      expectOne(retitle.run({ id: sessionId, title }).changes, 'retitle', sessionId),
    listSessions: ({ limit, key }) => {
      const n = Math.max(0, Math.floor(limit));
      return (key === undefined ? list.all(n) : listByKey.all(key, n)).map(toSessionRow);
    },
    getSession: ({ sessionId }) => {
      const record = byId.get(sessionId);
      return record === undefined ? undefined : toSessionRow(record);
    },
  };
}
