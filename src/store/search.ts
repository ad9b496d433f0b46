import Database from 'better-sqlite3';
import type { MessageRole, SearchHit, Store } from './types.js';

/** A search result as SQLite returns it. */
interface HitRecord {
  message_id: number;
  session_id: string;
  session_key: string;
  role: MessageRole;
  snippet: string;
  created_at: number;
}

/** Turns free text into an FTS5 query that cannot be a syntax error: each term becomes a quoted phrase. */
export function quoteTerms(params: { query: string }): string {
  return params.query
    .split(/\s+/)
    .filter((term) => term.length > 0)
    .map((term) => `"${term.replaceAll('"', '""')}"`)
    .join(' ');
}

/** The full-text search part of the Store. */
export type SearchQueries = Pick<Store, 'search'>;

/** Prepares the search statement once and returns the method that uses it. */
export function createSearchQueries(params: { db: Database.Database }): SearchQueries {
  const match = params.db.prepare<[string, number], HitRecord>(
    `SELECT m.id AS message_id, m.session_id, s.key AS session_key, m.role, m.created_at,
            snippet(messages_fts, 0, '[', ']', '…', 16) AS snippet
     FROM messages_fts
     JOIN messages m ON m.id = messages_fts.rowid
     JOIN sessions s ON s.id = m.session_id
     WHERE messages_fts MATCH ?
     ORDER BY bm25(messages_fts), m.id DESC
     LIMIT ?`,
  );

  /** Runs the query as FTS5 syntax; on a syntax error, runs it again as plain words. */
  const run = (query: string, limit: number): HitRecord[] => {
    try {
      return match.all(query, limit);
    } catch (error) {
      if (!(error instanceof Database.SqliteError) || error.code !== 'SQLITE_ERROR') throw error;
      return match.all(quoteTerms({ query }), limit);
    }
  };

  return {
    search: ({ query, limit }) => {
      const n = Math.max(0, Math.floor(limit));
      if (query.trim() === '' || n === 0) return [];
      return run(query, n).map(
        (hit): SearchHit => ({
          sessionId: hit.session_id,
          sessionKey: hit.session_key,
          messageId: hit.message_id,
          role: hit.role,
          snippet: hit.snippet,
          createdAt: hit.created_at,
        }),
      );
    },
  };
}
