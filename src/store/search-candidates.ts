import Database from 'better-sqlite3';
import { scoreCandidates, type RankedCandidate } from './search-rank.js';
import { queryTerms, quoteTerms } from './search-terms.js';
import type { SearchIndex } from './search-index.js';

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

/** The newest matching messages of a query, scored against each other. */
export interface ScoredCandidates {
  /** Newest first, each with its score. */
  readonly scored: readonly RankedCandidate[];
  /** True when more messages matched than were read: only the newest ones were scored. */
  readonly truncated: boolean;
  /** The FTS5 query that ran: the one given, or its words as quoted phrases when it was not valid FTS5 syntax. */
  readonly query: string;
}

/** What `findCandidates` takes. */
export interface FindCandidatesParams {
  /** FTS5 query syntax; plain words work (invalid syntax falls back to the words as phrases). */
  readonly query: string;
  /** Sessions the candidates should come from: older pages are read while fewer sessions than this were seen. */
  readonly sessions: number;
  /** A session whose messages are never candidates, nor those of its delegate_task children (its sub-agents' sessions). */
  readonly excludeSessionId?: string;
}

/** The one bounded candidate search both store searches rank from (sessions for session_search, messages for the CLI). */
export type CandidateFinder = (params: FindCandidatesParams) => ScoredCandidates;

/** Prepares the candidate statement once and returns the finder that pages through it. */
export function createCandidateFinder(params: { db: Database.Database; searchIndex: SearchIndex }): CandidateFinder {
  // ORDER BY the FTS rowid DESC is consumed by FTS5 itself (no sort); messages is joined by primary key.
  const candidates = params.db.prepare<{ query: string; exclude: string; below: number; limit: number }, CandidateRecord>(
    `SELECT m.id, m.session_id, substr(m.content, 1, ${HEAD_CHARS}) AS head, length(m.content) AS chars
     FROM messages_fts f
     JOIN messages m ON m.id = f.rowid
     WHERE messages_fts MATCH @query AND f.rowid < @below AND m.session_id <> @exclude AND m.hidden_by IS NULL
       AND m.session_id NOT IN (SELECT c.id FROM sessions c WHERE c.parent_session_id = @exclude AND c.key <> (SELECT p.key FROM sessions p WHERE p.id = @exclude))
     ORDER BY f.rowid DESC
     LIMIT @limit`,
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

  return ({ query: given, sessions, excludeSessionId }) => {
    // The newest messages wait to be indexed in batches: a search sees every message stored before it.
    params.searchIndex.catchUp();
    // A NUL ends an FTS5 string early, so even the quoted fallback would be "unterminated": it counts as a space.
    const query = given.replaceAll('\u0000', ' ');
    const rows: CandidateRecord[] = [];
    const seen = new Set<string>();
    let below = Number.MAX_SAFE_INTEGER;
    let current = query;
    let truncated = true;
    for (let n = 0; n <= MORE_PAGES; n += 1) {
      const found = page(current, excludeSessionId ?? '', below);
      current = found.query;
      const kept = found.rows.slice(0, SEARCH_CANDIDATES);
      rows.push(...kept);
      for (const row of kept) seen.add(row.session_id);
      const last = kept.at(-1);
      if (found.rows.length <= SEARCH_CANDIDATES || last === undefined) {
        truncated = false;
        break;
      }
      if (seen.size >= sessions) break;
      below = last.id;
    }
    const pool = rows.map((r) => ({ id: r.id, sessionId: r.session_id, head: r.head, chars: r.chars }));
    return { scored: scoreCandidates({ candidates: pool, terms: queryTerms({ query }) }), truncated, query: current };
  };
}
