import type Database from 'better-sqlite3';
import type { CandidateFinder } from './search-candidates.js';
export { SEARCH_CANDIDATES } from './search-candidates.js';
import { rankSessions } from './search-rank.js';
import type { MessageRole, SearchedMessage, SessionRow, SessionSearchGroup, SessionSearchResult, Store } from './types.js';

/** A message row as the search reads it. */
interface MessageRecord {
  id: number;
  role: MessageRole;
  content: string;
  tool_name: string | null;
  created_at: number;
}

/** A session row as the search reads it. */
interface SessionRecord {
  id: string;
  key: string;
  parent_session_id: string | null;
  title: string | null;
  started_at: number;
  ended_at: number | null;
  message_count: number;
}

/** The session search part of the Store. */
export type SessionSearchQueries = Pick<Store, 'searchSessions'>;

const toMessage = (record: MessageRecord): SearchedMessage => ({
  id: record.id,
  role: record.role,
  content: record.content,
  toolName: record.tool_name,
  createdAt: record.created_at,
});

const toSession = (record: SessionRecord): SessionRow => ({
  id: record.id,
  key: record.key,
  parentSessionId: record.parent_session_id,
  title: record.title,
  startedAt: record.started_at,
  endedAt: record.ended_at,
  messageCount: record.message_count,
});

/** Prepares the session search statements once and returns the method that uses them. */
export function createSessionSearchQueries(params: { db: Database.Database; find: CandidateFinder }): SessionSearchQueries {
  const { db, find } = params;
  const message = db.prepare<[number], MessageRecord>('SELECT id, role, content, tool_name, created_at FROM messages WHERE id = ?');
  const before = db.prepare<[string, number], MessageRecord>(
    'SELECT id, role, content, tool_name, created_at FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT 1',
  );
  const after = db.prepare<[string, number], MessageRecord>(
    'SELECT id, role, content, tool_name, created_at FROM messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT 1',
  );
  const session = db.prepare<[string], SessionRecord>(
    `SELECT s.id, s.key, s.parent_session_id, s.title, s.started_at, s.ended_at,
            (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count
     FROM sessions s WHERE s.id = ?`,
  );

  const searchSessions = db.transaction((params: Parameters<Store['searchSessions']>[0]): SessionSearchResult => {
    const sessions = Math.max(0, Math.floor(params.sessions));
    const perSession = Math.max(1, Math.floor(params.matchesPerSession));
    if (params.query.trim() === '' || sessions === 0) return { groups: [], candidates: 0, truncated: false };
    const found = find({ query: params.query, sessions, ...(params.excludeSessionId === undefined ? {} : { excludeSessionId: params.excludeSessionId }) });
    const ranked = rankSessions({ scored: found.scored });
    const groups: SessionSearchGroup[] = [];
    for (const entry of ranked) {
      if (groups.length >= sessions) break;
      const row = session.get(entry.sessionId);
      if (row === undefined) continue;
      const best = entry.candidates.slice(0, perSession).sort((x, y) => x.id - y.id);
      const matches = best.flatMap((candidate) => {
        const hit = message.get(candidate.id);
        if (hit === undefined) return [];
        const prev = before.get(entry.sessionId, candidate.id);
        const next = after.get(entry.sessionId, candidate.id);
        return [{ message: toMessage(hit), before: prev ? toMessage(prev) : null, after: next ? toMessage(next) : null }];
      });
      groups.push({ session: toSession(row), matches, hits: entry.candidates.length });
    }
    return { groups, candidates: found.scored.length, truncated: found.truncated };
  });

  return { searchSessions: (params) => searchSessions(params) };
}
