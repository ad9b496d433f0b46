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
