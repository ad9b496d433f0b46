import type Database from 'better-sqlite3';
import type { StoreLogger } from './store-logger.js';

/**
 * New messages wait in messages_fts_pending and enter the full-text index this many at a time (migration 13). FTS5
 * writes a segment and its structure record on every commit: one message per commit cost ~110 µs of a ~150 µs insert,
 * 64 at a time ~30 µs each (bench/README, issue 27, third session).
 */
export const SEARCH_INDEX_BATCH = 64;

/** The full-text index's write-behind queue: messages are indexed in batches, and always before a search reads it. */
export interface SearchIndex {
  /** A message was inserted (queued by the messages_fts_insert trigger): indexes the queue once a batch is full. */
  added(): void;
  /**
   * Indexes every queued message now (before a search; on close, when this connection queued any). An empty queue
   * costs one read, no write lock. A failure (disk full) is logged, the queue kept.
   */
  catchUp(): void;
  /** How many messages this connection queued since its last catch-up. */
  queued(): number;
}

/**
 * Prepares the queue's statements. Only this connection's inserts count towards a batch: rows an earlier run (or
 * another process) left queued are indexed with the next batch or search.
 */
export function createSearchIndex(params: { db: Database.Database; logger: StoreLogger; batch?: number }): SearchIndex {
  const { db, logger } = params;
  const batch = params.batch ?? SEARCH_INDEX_BATCH;
  const anyQueued = db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM messages_fts_pending)').pluck();
  const index = db.prepare(
    'INSERT INTO messages_fts (rowid, content) SELECT m.id, m.content FROM messages_fts_pending p JOIN messages m ON m.id = p.id ORDER BY p.id',
  );
  const clear = db.prepare('DELETE FROM messages_fts_pending');
  const flush = db.transaction(() => {
    index.run();
    clear.run();
  });
  let pending = 0;
  let failing = false;
  const catchUp = (): void => {
    try {
      if (pending === 0 && anyQueued.get() !== 1) return;
      flush();
      pending = 0;
      failing = false;
    } catch (error) {
      // The messages are stored; only their index entries wait (a search meanwhile misses the newest ones). Logged
      // once per run of failures: a full disk fails every try until it has room again.
      if (!failing) logger.warn({ err: error, queued: pending }, 'store: the search index could not take the newest messages yet; they stay queued and are indexed once it can');
      failing = true;
    }
  };
  return {
    added: () => {
      pending += 1;
      if (pending >= batch) catchUp();
    },
    catchUp,
    queued: () => pending,
  };
}
