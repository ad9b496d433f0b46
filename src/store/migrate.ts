import type Database from 'better-sqlite3';
import { UserFacingError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Migration } from './migrations.js';
import type { StoreLogger } from './store-logger.js';

/** What `migrate` did. */
export interface MigrateResult {
  /** Versions applied by this call, in order (empty when the schema was already current). */
  readonly applied: readonly number[];
  /** Schema version after the call. */
  readonly version: number;
}

/** Throws when the list is not 1, 2, 3, ... in order: a programming error, caught by any test that opens a store. */
function assertWellFormed(migrations: readonly Migration[]): void {
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) {
      throw new Error(`store migrations must be numbered 1..n in order; position ${index} has version ${m.version}`);
    }
  });
}

/**
 * Brings a database's schema up to date: applies, each in its own IMMEDIATE transaction and exactly
 * once, the migrations whose version is not yet recorded in `schema_migrations`. Refuses a database
 * written by a newer hermes (a version this code does not know).
 */
export function migrate(params: {
  db: Database.Database;
  migrations: readonly Migration[];
  clock: Clock;
  /** Where the database lives, for messages. */
  location: string;
  logger: StoreLogger;
}): MigrateResult {
  const { db, migrations, clock, location, logger } = params;
  assertWellFormed(migrations);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const currentVersion = db.prepare<[], number>('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck();
  const isApplied = db.prepare<[number], number>('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = db.prepare<[number, string, number]>(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );

  const known = migrations.length;
  const found = currentVersion.get() ?? 0;
  if (found > known) {
    throw new UserFacingError({
      message:
        `The hermes store at ${location} has schema version ${found}, but this hermes only knows versions up to ${known}: ` +
        'it was written by a newer hermes.',
      hint: 'Upgrade hermes to the version that last used this profile (or newer), then start it again.',
    });
  }

  const applied: number[] = [];
  for (const migration of migrations) {
    const apply = db.transaction((): boolean => {
      if (isApplied.get(migration.version) !== undefined) return false;
      migration.up(db);
      record.run(migration.version, migration.name, clock.now());
      return true;
    });
    // IMMEDIATE takes the write lock first, so two processes opening one file cannot both apply it.
    if (apply.immediate()) {
      applied.push(migration.version);
      logger.info({ location, version: migration.version, name: migration.name }, 'store: applied migration');
    }
  }
  return { applied, version: currentVersion.get() ?? 0 };
}
