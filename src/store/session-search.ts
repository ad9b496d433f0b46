import type Database from 'better-sqlite3';
import type { CandidateFinder } from './search-candidates.js';
import { sessionColumns, toSessionRow, type SessionRecord } from './sessions.js';
export { SEARCH_CANDIDATES } from './search-candidates.js';
import { rankSessions } from './search-rank.js';
import type { MessageRole, SearchedMessage, SessionSearchGroup, SessionSearchResult, Store } from './types.js';

/** A message row as the search reads it. */
interface MessageRecord {
  id: number;
  role: MessageRole;
  content: string;
  tool_name: string | null;
  created_at: number;
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

/** Prepares the session search statements once and returns the method that uses them. */
export function createSessionSearchQueries(params: { db: Database.Database; find: CandidateFinder }): SessionSearchQueries {
  const { db, find } = params;
  const message = db.prepare<[number], MessageRecord>('SELECT id, role, content, tool_name, created_at FROM messages WHERE id = ?');
  const before = db.prepare<[string, number], MessageRecord>(
    'SELECT id, role, content, tool_name, created_at FROM messages WHERE session_id = ? AND id < ? AND hidden_by IS NULL ORDER BY id DESC LIMIT 1',
  );
  const after = db.prepare<[string, number], MessageRecord>(
    'SELECT id, role, content, tool_name, created_at FROM messages WHERE session_id = ? AND id > ? AND hidden_by IS NULL ORDER BY id LIMIT 1',
  );
  const session = db.prepare<[string], SessionRecord>(
`SELECT ${sessionColumns} FROM sessions s WHERE s.id = ?`,
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
      groups.push({ session: toSessionRow(row), matches, hits: entry.candidates.length });
    }
    return { groups, candidates: found.scored.length, truncated: found.truncated };
  });

  return { searchSessions: (params) => searchSessions(params) };
}
