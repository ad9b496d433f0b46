import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Which `once` checks have fired (so they stay retired across restarts). */
export interface FiredChecks {
  /** True when the check `name` with this `command` fired before (a changed command re-arms it). */
  hasFired(params: { name: string; command: string }): boolean;
  /** Records that it fired; durable when this returns. */
  markFired(params: { name: string; command: string; atMs: number }): void;
}

/** One record of the file. */
interface FiredRecord {
  readonly command: string;
  readonly firedAt: number;
}

/** The profile's record of fired `once` checks. */
export function firedChecksFile(params: { profileDir: string }): string {
  return path.join(params.profileDir, 'checks-fired.json');
}

/** The records in `file`; an unreadable or malformed file counts as none (a check may then fire once more). */
function readRecords(params: { file: string }): Map<string, FiredRecord> {
  const records = new Map<string, FiredRecord>();
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(params.file, 'utf8'));
  } catch {
    return records;
  }
  if (typeof value !== 'object' || value === null) return records;
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { command, firedAt } = entry as Record<string, unknown>;
    if (typeof command === 'string' && typeof firedAt === 'number') records.set(name, { command, firedAt });
  }
  return records;
}

/**
 * FiredChecks kept in a small JSON file in the profile (`checks-fired.json`), written whole to a temporary file,
 * fsynced and renamed, so a crash leaves the old or the new file, never a truncated one. A file rather than a store
 * table: the store's migrations are numbered 1..n without gaps and 7 is not in yet; the fact is tiny, per profile
 * and written once per check; and deleting the file (or an entry) re-arms the checks by hand.
 */
export function fileFiredChecks(params: { file: string }): FiredChecks {
  const { file } = params;
  const records = readRecords({ file });
  return {
    hasFired: ({ name, command }) => records.get(name)?.command === command,
    markFired: ({ name, command, atMs }) => {
      records.set(name, { command, firedAt: atMs });
      const temporary = `${file}.${process.pid}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(Object.fromEntries(records), null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, file);
    },
  };
}
