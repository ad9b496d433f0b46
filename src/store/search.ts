import type Database from 'better-sqlite3';
import type { CandidateFinder } from './search-candidates.js';
import { markedSnippet } from './search-snippet.js';
import { queryTerms } from './search-terms.js';
import type { SearchHit, Store } from './types.js';

export { quoteTerms } from './search-terms.js';

/** What the hit statement returns for one chosen message. */
interface HitRecord {
  content: string;
  session_key: string;
  role: SearchHit['role'];
  created_at: number;
}

/** The full-text search part of the Store. */
export type SearchQueries = Pick<Store, 'search'>;

/**
 * Prepares the hit statement once and returns the method that uses it. The messages ranked are the bounded
 * candidates `searchSessions` ranks too (the newest matches, scored against each other), so a word in every message
 * costs what a rare one does; only the `limit` best are read whole, for their snippets.
 */
export function createSearchQueries(params: { db: Database.Database; find: CandidateFinder }): SearchQueries {
  const message = params.db.prepare<[number], HitRecord>(
    `SELECT m.content, s.key AS session_key, m.role, m.created_at
     FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.id = ?`,
  );

  // One read transaction: the candidates and their snippets come from the same state of the index.
  const search = params.db.transaction(({ query, limit }: Parameters<Store['search']>[0]): SearchHit[] => {
    const n = Math.max(0, Math.floor(limit));
    if (query.trim() === '' || n === 0) return [];
    const found = params.find({ query, sessions: 1 });
    const best = [...found.scored].sort((x, y) => y.score - x.score || y.id - x.id).slice(0, n);
    const terms = queryTerms({ query });
    return best.flatMap((candidate): SearchHit[] => {
      const row = message.get(candidate.id);
      if (row === undefined) return [];
      return [
        {
          sessionId: candidate.sessionId,
          sessionKey: row.session_key,
          messageId: candidate.id,
          role: row.role,
          snippet: markedSnippet({ text: row.content, terms }),
          createdAt: row.created_at,
        },
      ];
    });
  });

  return { search: (args) => search(args) };
}
