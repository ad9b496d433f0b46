import { accessSync, constants, statfsSync } from 'node:fs';

/** Why storage refused a write: no space (or quota) left, a read-only filesystem, or another I/O failure. */
export type DiskErrorKind = 'diskFull' | 'readOnly' | 'io';

/** The parts of a profile that write to its disk; each one's failures are tracked apart. */
export type DiskPart = 'log' | 'store' | 'state' | 'cache';

/** Where writers tell the gateway that the disk refused them, and that it takes writes again. */
export interface DiskReporter {
  /** A write of `part` failed for a storage reason (what happened, in one line, for /healthz). */
  failed(params: { part: DiskPart; kind: DiskErrorKind; detail: string }): void;
  /** A write of `part` succeeded: its condition, if any, is over. */
  succeeded(params: { part: DiskPart }): void;
}

/** errno codes that mean the filesystem refused a write. */
const errnoKinds: Readonly<Record<string, DiskErrorKind>> = {
  ENOSPC: 'diskFull',
  EDQUOT: 'diskFull',
  EROFS: 'readOnly',
  EIO: 'io',
};

/** How deep `cause` chains are followed. */
const maxCauseDepth = 5;

/**
 * The storage reason behind `error` (or an error in its `cause` chain), or undefined when it is something else:
 * errno ENOSPC / EDQUOT (diskFull), EROFS (readOnly), EIO (io); SQLite's SQLITE_FULL (diskFull), SQLITE_READONLY*
 * (readOnly), SQLITE_IOERR* (io). SQLite reports some ENOSPC and EROFS writes as a generic I/O error, so an `io`
 * failure is looked at again where `path` (a folder) is given: no free blocks left is diskFull, a filesystem
 * that refuses writes even to root is readOnly.
 */
export function diskErrorKind(params: { error: unknown; path?: string }): DiskErrorKind | undefined {
  let current: unknown = params.error;
  for (let depth = 0; depth < maxCauseDepth && current instanceof Error; depth++) {
    const code = 'code' in current && typeof current.code === 'string' ? current.code : '';
    const kind = kindOfCode({ code });
    if (kind === 'io' && params.path !== undefined) return refineIo({ path: params.path });
    if (kind !== undefined) return kind;
    current = current.cause;
  }
  return undefined;
}

/** The words /healthz and `hermes status` use for a kind. */
export function diskReason(params: { kind: DiskErrorKind }): string {
  return { diskFull: 'disk full', readOnly: 'read-only filesystem', io: 'disk I/O error' }[params.kind];
}

/** The code (errno name or SQLite extended code) of an error, '' when it has none. */
export function errorCode(params: { error: unknown }): string {
  const { error } = params;
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

function kindOfCode(params: { code: string }): DiskErrorKind | undefined {
  const { code } = params;
  const errno = errnoKinds[code];
  if (errno !== undefined) return errno;
  if (code === 'SQLITE_FULL') return 'diskFull';
  if (code.startsWith('SQLITE_READONLY')) return 'readOnly';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return undefined;
}

/** What an I/O error at `path` most likely was: no space left, a read-only filesystem, or just an I/O error. */
function refineIo(params: { path: string }): DiskErrorKind {
  try {
    if (statfsSync(params.path).bavail === 0) return 'diskFull';
  } catch {
    // No statfs here: fall through.
  }
  try {
    accessSync(params.path, constants.W_OK);
  } catch (error) {
    if (errorCode({ error }) === 'EROFS') return 'readOnly';
  }
  return 'io';
}
