import Database from 'better-sqlite3';
import { rankSessions, scoreCandidates, type RankCandidate } from './search-rank.js';
import { quoteTerms } from './search.js';
import { queryTerms } from './search-terms.js';
import type { MessageRole, SearchedMessage, SessionRow, SessionSearchGroup, SessionSearchResult, Store } from './types.js';

/**
 * Matching messages ranked per search, newest first. FTS5 hands out rowids in descending order without scoring
 * them, so taking the newest N costs about the same for a word in every message as for a rare one (bm25 over all
 * matches is what made common words slow: it reads every matching row).
 */
export const SEARCH_CANDIDATES = 500;
/**
 * Further pages of older candidates read while the ones so far come from fewer sessions than asked for (one long
 * session can hold all of the newest matches); each page is bounded like the first.
 */
const MORE_PAGES = 4;
/** Characters of each candidate whose words are counted for its score. */
const HEAD_CHARS = 2000;

/** A candidate row as SQLite returns it. */
interface CandidateRecord {
  id: number;
  session_id: string;
  head: string;
  chars: number;
}

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
export function createSessionSearchQueries(params: { db: Database.Database }): SessionSearchQueries {
  const { db } = params;
  // ORDER BY the FTS rowid DESC is consumed by FTS5 itself (no sort); messages is joined by primary key.
  const candidates = db.prepare<{ query: string; exclude: string; below: number; limit: number }, CandidateRecord>(
    `SELECT m.id, m.session_id, substr(m.content, 1, ${HEAD_CHARS}) AS head, length(m.content) AS chars
     FROM messages_fts f
     JOIN messages m ON m.id = f.rowid
     WHERE messages_fts MATCH @query AND f.rowid < @below AND m.session_id <> @exclude
     ORDER BY f.rowid DESC
     LIMIT @limit`,
  );
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

  /** One page of candidates below a rowid; the query as FTS5 syntax, or (after a syntax error) as plain words. */
  const page = (query: string, exclude: string, below: number): { rows: CandidateRecord[]; query: string } => {
    const args = { exclude, below, limit: SEARCH_CANDIDATES + 1 };
    try {
      return { rows: candidates.all({ query, ...args }), query };
    } catch (error) {
      if (!(error instanceof Database.SqliteError) || error.code !== 'SQLITE_ERROR') throw error;
      const quoted = quoteTerms({ query });
      return { rows: quoted === '' ? [] : candidates.all({ query: quoted, ...args }), query: quoted };
    }
  };

  /** The newest candidates, a page at a time while they come from fewer than `sessions` sessions. */
  const find = (query: string, exclude: string, sessions: number): { rows: CandidateRecord[]; truncated: boolean } => {
    const rows: CandidateRecord[] = [];
    const seen = new Set<string>();
    let below = Number.MAX_SAFE_INTEGER;
    let current = query;
    for (let n = 0; n <= MORE_PAGES; n += 1) {
      const found = page(current, exclude, below);
      current = found.query;
      const kept = found.rows.slice(0, SEARCH_CANDIDATES);
      rows.push(...kept);
      for (const row of kept) seen.add(row.session_id);
      const last = kept.at(-1);
      if (found.rows.length <= SEARCH_CANDIDATES || last === undefined) return { rows, truncated: false };
      if (seen.size >= sessions) break;
      below = last.id;
    }
    return { rows, truncated: true };
  };

  const searchSessions = db.transaction((params: Parameters<Store['searchSessions']>[0]): SessionSearchResult => {
    const sessions = Math.max(0, Math.floor(params.sessions));
    const perSession = Math.max(1, Math.floor(params.matchesPerSession));
    if (params.query.trim() === '' || sessions === 0) return { groups: [], candidates: 0, truncated: false };
    const { rows, truncated } = find(params.query, params.excludeSessionId ?? '', sessions);
    const pool: RankCandidate[] = rows.map((r) => ({ id: r.id, sessionId: r.session_id, head: r.head, chars: r.chars }));
    const ranked = rankSessions({ scored: scoreCandidates({ candidates: pool, terms: queryTerms({ query: params.query }) }) });
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
    return { groups, candidates: pool.length, truncated };
  });

  return { searchSessions: (params) => searchSessions(params) };
}
