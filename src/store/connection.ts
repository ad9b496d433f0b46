import Database from 'better-sqlite3';
import nodePath from 'node:path';
import { UserFacingError } from '../core/errors.js';
import { diskErrorKind, diskReason, errorCode } from '../util/disk-error.js';
import type { StoreLogger } from './store-logger.js';
import { errorMessage } from '../util/error-text.js';

/** How long a statement waits for another connection's lock before failing. */
export const BUSY_TIMEOUT_MS = 5000;

/** The page cache of the store's connection, as `PRAGMA cache_size` takes it (negative: KiB): 2 MB. */
export const PAGE_CACHE_KIB = -2000;

/**
 * Opens a SQLite database and sets the store's pragmas: WAL (readers never block the writer),
 * synchronous=NORMAL (in WAL mode a commit survives a crash of the process; only an OS crash or
 * power loss can lose the last commits), foreign keys on, and a busy timeout.
 */
export function openDatabase(params: { path: string; logger: StoreLogger }): Database.Database {
  const { path, logger } = params;
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new UserFacingError({
      message: `Cannot open the hermes store at ${path}: ${errorMessage(error)}`,
      hint: 'Check that its directory exists and is writable by this user, then start hermes again.',
      cause: error,
    });
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal' && !db.memory) {
      logger.warn({ path, journalMode: mode }, 'store: WAL journal mode is unavailable; using the fallback mode');
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // SQLite's own default page cache (2 MB). better-sqlite3 builds SQLite with 16 MB (DEFAULT_CACHE_SIZE=-16000):
    // malloc'd pages that stay for the life of the connection, filling as the database grows, which was most of
    // what a gateway's RSS climbed by over its first hours (bench/README, issue 27's fifth session). The pages a
    // turn touches (its session's newest messages, the inbox, the indexes' upper levels) fit in 2 MB.
    db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
    return db;
  } catch (error) {
    db.close();
    throw diskOpenFailure({ error, path }) ?? error;
  }
}

/**
 * A store that cannot be opened (or migrated) because of its disk, as a UserFacingError saying so; undefined for
 * any other failure. SQLite needs room for its -wal and -shm files even to read.
 */
export function diskOpenFailure(params: { error: unknown; path: string }): UserFacingError | undefined {
  const { error, path } = params;
  const kind = diskErrorKind({ error, path: nodePath.dirname(path) });
  if (kind === undefined) return undefined;
  return new UserFacingError({
    message: `Cannot open the hermes store at ${path}: ${diskReason({ kind })} (${errorCode({ error }) || 'unknown'})`,
    hint:
      kind === 'readOnly'
        ? 'Remount the filesystem that holds HERMES_HOME read-write, then start hermes again (under systemd it retries every few seconds).'
        : 'Free some space on the filesystem that holds HERMES_HOME, then start hermes again (under systemd it retries every few seconds).',
    cause: error,
  });
}
