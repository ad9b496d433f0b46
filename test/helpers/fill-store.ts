import type Database from 'better-sqlite3';

/**
 * Makes the store's database full for real: no page beyond the ones it has (max_page_count), and those filled
 * (free pages, then the last pages of the cursor, inbox and message tables, with rows ever smaller), so every
 * write that adds a row fails with SQLITE_FULL, as on a full disk. Updates in place may still fit.
 */
export function fillStore(params: { db: Database.Database }): void {
  const { db } = params;
  db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
  const session = `filler-${Date.now()}`;
  const inserts = [
    db.prepare('INSERT INTO cursors (name, value, updated_at) VALUES (?, ?, 0)'),
    db.prepare("INSERT INTO inbox (platform, message_id, session_key, state, event_json, received_at, updated_at) VALUES ('test', ?, 'filler', 'done', ?, 0, 0)"),
    db.prepare(`INSERT INTO messages (session_id, role, content, created_at) SELECT '${session}', 'user', ? || ?, 0`),
  ];
  try {
    db.prepare("INSERT INTO sessions (id, key, started_at, ended_at) VALUES (?, 'filler', 0, 0)").run(session);
  } catch {
    // No room even for the session: its messages simply fail at once.
  }
  let n = 0;
  for (const size of [4000, 1000, 250, 60, 15, 1]) {
    for (const insert of inserts) {
      for (;;) {
        try {
          insert.run(`0:${String(n++).padStart(6, '0')}`, 'f'.repeat(size));
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_FULL') throw error;
          break;
        }
      }
    }
  }
}

/** Gives the database room again (what deleting a big file does for a real disk). */
export function freeStore(params: { db: Database.Database }): void {
  params.db.pragma('max_page_count = 1073741823');
}
