import { diskReason, type DiskErrorKind } from '../util/disk-error.js';

/** The store was used after `close()`: a shutdown-ordering bug in the caller. */
export class StoreClosedError extends Error {
  override readonly name = 'StoreClosedError';

  constructor(params: { location: string }) {
    super(
      `The hermes store at ${params.location} was used after it was closed. ` +
        'Something kept running past shutdown; stop it before closing the store.',
    );
  }
}

/** `continueSession` was refused: the session got new messages since the caller read the ones it compressed. */
export class SessionChangedError extends Error {
  override readonly name = 'SessionChangedError';

  constructor(params: { sessionId: string }) {
    super(`session ${params.sessionId} got new messages while it was being compressed; nothing changed`);
  }
}

/** A stored row could not be read back (hand-edited or damaged database). */
export class StoreDataError extends Error {
  override readonly name = 'StoreDataError';
  /** Table the bad row is in. */
  readonly table: string;
  /** Primary key of the bad row. */
  readonly rowId: string;

  constructor(params: { table: string; rowId: string | number; detail: string; cause?: unknown }) {
    super(
      `Row ${params.rowId} of table "${params.table}" in the hermes store is unreadable (${params.detail}). ` +
        'The database may have been edited by hand or damaged; restore it from a backup or remove that row.',
      { cause: params.cause },
    );
    this.table = params.table;
    this.rowId = String(params.rowId);
  }
}

/**
 * The disk refused a store write (no space or quota left, a read-only filesystem, an I/O error). Nothing of the
 * failed call was committed; the same call can succeed once the disk takes writes again.
 */
export class StoreDiskError extends Error {
  override readonly name = 'StoreDiskError';
  /** Why: diskFull, readOnly or io. */
  readonly kind: DiskErrorKind;
  /** The driver's code (SQLITE_FULL, SQLITE_IOERR_WRITE, ENOSPC, ...). */
  readonly code: string;
  /** The store method that failed (e.g. "recordInbound"). */
  readonly operation: string;

  constructor(params: { kind: DiskErrorKind; code: string; operation: string; location: string; cause: unknown }) {
    super(`The hermes store at ${params.location} cannot write (${diskReason({ kind: params.kind })}, ${params.code}) during ${params.operation}.`, { cause: params.cause });
    this.kind = params.kind;
    this.code = params.code;
    this.operation = params.operation;
  }
}

/** The StoreDiskError behind `error` (itself or in its cause chain), if there is one. */
export function storeDiskErrorOf(params: { error: unknown }): StoreDiskError | undefined {
  let current: unknown = params.error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof StoreDiskError) return current;
    current = current.cause;
  }
  return undefined;
}
