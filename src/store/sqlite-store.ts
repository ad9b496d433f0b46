import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { diskErrorKind, errorCode, type DiskReporter } from '../util/disk-error.js';
import { diskOpenFailure, openDatabase } from './connection.js';
import { StoreClosedError, StoreDiskError } from './errors.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations.js';
import { liveMethods, prepareStoreParts, type Live } from './store-parts.js';
import { silentStoreLogger, type StoreLogger } from './store-logger.js';
import type { Store } from './types.js';

/** What `openStore` takes. */
export interface OpenStoreParams {
  /** Database file, or ':memory:' (tests). Its directory must exist. */
  readonly path: string;
  /** Source of every timestamp the store writes. */
  readonly clock: Clock;
  readonly logger?: StoreLogger;
  /** Told when the disk refuses a store write. */
  readonly disk?: DiskReporter;
  /** Runs once on the open connection after migrations (tests set a tiny max_page_count: a real SQLITE_FULL). */
  readonly configure?: (db: Database.Database) => void;
}

/** Checkpoints the WAL into the main file (so a closed store is one self-contained file), then closes. */
function closeDatabase(db: Database.Database, logger: StoreLogger): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    logger.warn({ path: db.name, err: error }, 'store: WAL checkpoint on close failed; SQLite will redo it on next open');
  }
  db.close();
}

/** Opens (creating if needed) the database at `path` and applies pending migrations; closes it again when they fail. */
function openMigrated(params: { path: string; clock: Clock; logger: StoreLogger }): Database.Database {
  const { path: dbPath, clock, logger } = params;
  const db = openDatabase({ path: dbPath, logger });
  try {
    migrate({ db, migrations, clock, location: dbPath, logger });
  } catch (error) {
    db.close();
    throw diskOpenFailure({ error, path: dbPath }) ?? error;
  }
  return db;
}

/**
 * The wrapper of every store method: a call after close() fails with a clear error instead of a driver TypeError,
 * and a driver error the disk caused becomes a StoreDiskError (reported to `disk`); any other error goes out as it is.
 */
function createLive(params: { path: string; disk: DiskReporter | undefined; isClosed: () => boolean }): Live {
  const { path: dbPath, disk, isClosed } = params;
  const folder = dbPath === ':memory:' ? undefined : path.dirname(dbPath);

  /** A driver error the disk caused, as a StoreDiskError (reported); any other error as it is. */
  const classified = (error: unknown, operation: string): unknown => {
    const kind = diskErrorKind({ error, ...(folder !== undefined ? { path: folder } : {}) });
    if (kind === undefined) return error;
    const failure = new StoreDiskError({ kind, code: errorCode({ error }) || 'unknown', operation, location: dbPath, cause: error });
    disk?.failed({ part: 'store', kind, detail: `the store cannot write (${failure.code} during ${operation})` });
    return failure;
  };

  return <A extends unknown[], R>(operation: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      if (isClosed()) throw new StoreClosedError({ location: dbPath });
      try {
        return fn(...args);
      } catch (error) {
        throw classified(error, operation);
      }
    };
}

/**
 * Opens (creating if needed) the SQLite store at `path`, applies pending migrations and prepares
 * every statement once. Throws UserFacingError when the file cannot be opened or was written by a
 * newer hermes. A call the disk refuses (SQLITE_FULL, SQLITE_IOERR*, SQLITE_READONLY*, ENOSPC, EROFS, EDQUOT)
 * throws StoreDiskError and is reported to `disk` (whose probe, a write, finds out when it works again).
 */
export function openStore(params: OpenStoreParams): Store {
  const { path: dbPath, clock } = params;
  const logger = params.logger ?? silentStoreLogger;
  const db = openMigrated({ path: dbPath, clock, logger });
  let closed = false;
  const parts = prepareStoreParts({ db, clock, logger });
  params.configure?.(db);
  const live = createLive({ path: dbPath, disk: params.disk, isClosed: () => closed });
  const inOne = live('together', db.transaction((fn: () => unknown) => fn()));
  return {
    ...liveMethods({ live, parts }),
    together: <T>(fn: () => T): T => inOne(fn) as T,
    close: () => {
      if (closed) return;
      closed = true;
      if (parts.searchIndex.queued() > 0) parts.searchIndex.catchUp();
      closeDatabase(db, logger);
    },
  };
}
