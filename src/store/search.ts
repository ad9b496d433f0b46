import type Database from 'better-sqlite3';
import type { CandidateFinder } from './search-candidates.js';
import type { SearchHit, Store } from './types.js';

export { quoteTerms } from './search-terms.js';

/** What the hit statement returns for one chosen message. */
interface HitRecord {
  id: number;
  session_key: string;
  role: SearchHit['role'];
  created_at: number;
  snippet: string | null;
}

/** The full-text search part of the Store. */
export type SearchQueries = Pick<Store, 'search'>;

/**
 * Prepares the hit statement once and returns the method that uses it. The messages ranked are the bounded
 * candidates `searchSessions` ranks too (the newest matches, scored against each other), so a word in every message
 * costs what a rare one does; only the `limit` best get a snippet.
 */
export function createSearchQueries(params: { db: Database.Database; find: CandidateFinder }): SearchQueries {
  // One statement for the chosen rows: the rowid range lets FTS5 seek to the newest candidates, the id list (kept
  // from the virtual table by `+ 0`) means only the chosen rows get a snippet. (Handed to FTS5 itself, `rowid = ?` or
  // `rowid IN (...)` with bound values returned every match on SQLite 3.53.)
  const hits = params.db.prepare<{ query: string; lo: number; hi: number; ids: string }, HitRecord>(
    `SELECT messages_fts.rowid AS id, s.key AS session_key, m.role, m.created_at,
            snippet(messages_fts, 0, '[', ']', '…', 16) AS snippet
     FROM messages_fts
     JOIN messages m ON m.id = messages_fts.rowid
     JOIN sessions s ON s.id = m.session_id
     WHERE messages_fts MATCH @query AND messages_fts.rowid >= @lo AND messages_fts.rowid <= @hi
       AND messages_fts.rowid + 0 IN (SELECT value FROM json_each(@ids))`,
  );

  // One read transaction: the candidates and their snippets come from the same state of the index.
  const search = params.db.transaction(({ query, limit }: Parameters<Store['search']>[0]): SearchHit[] => {
    const n = Math.max(0, Math.floor(limit));
    if (query.trim() === '' || n === 0) return [];
    const found = params.find({ query, sessions: 1 });
    const best = [...found.scored].sort((x, y) => y.score - x.score || y.id - x.id).slice(0, n);
    if (best.length === 0) return [];
    const ids = best.map((candidate) => candidate.id);
    const rows = hits.all({ query: found.query, lo: Math.min(...ids), hi: Math.max(...ids), ids: JSON.stringify(ids) });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return best.flatMap((candidate): SearchHit[] => {
      const row = byId.get(candidate.id);
      if (row === undefined) return [];
      return [
        {
          sessionId: candidate.sessionId,
          sessionKey: row.session_key,
          messageId: candidate.id,
          role: row.role,
          snippet: row.snippet ?? '',
          createdAt: row.created_at,
        },
      ];
    });
  });

  return { search: (args) => search(args) };
}
