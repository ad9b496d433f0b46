import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { Store } from './types.js';

/** The key/value cursors' part of the Store. */
export type CursorQueries = Pick<Store, 'getCursor' | 'setCursor'>;

/** Prepares the cursor statements once and returns the methods that use them. */
export function createCursorQueries(params: { db: Database.Database; clock: Clock }): CursorQueries {
  const { db, clock } = params;
  const read = db.prepare<[string], string>('SELECT value FROM cursors WHERE name = ?').pluck();
  const write = db.prepare<{ name: string; value: string; now: number }>(
    `INSERT INTO cursors (name, value, updated_at) VALUES (@name, @value, @now)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  return {
    getCursor: ({ name }) => read.get(name),
    setCursor: ({ name, value }) => {
      write.run({ name, value, now: clock.now() });
    },
  };
}
