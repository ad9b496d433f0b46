import { readFileSync, statSync } from 'node:fs';

/** Files remembered by one memo; past this the oldest is forgotten. */
const MEMO_FILES = 64;

/**
 * What was derived from a file's text (read, parsed, threat-scanned), read again only when the file changed: its inode,
 * size or modification time (nanoseconds) differ from the last read. A stat costs a fraction of a read and a scan, and
 * every new session's prompt reads the same few files (SOUL.md, the memory files).
 */
export class FileMemo<T> {
  private readonly entries = new Map<string, { stamp: string; value: T }>();

  /** `derive` of the file's text, or undefined when it cannot be read (a missing file is asked again next time). */
  read(params: { file: string; derive: (text: string) => T }): T | undefined {
    const { file } = params;
    let stamp: string | undefined;
    try {
      // A missing file is the common case (no SOUL.md, no memories yet): no exception built for it.
      const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
      stamp = stat === undefined ? undefined : `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    } catch {
      stamp = undefined;
    }
    if (stamp === undefined) {
      this.entries.delete(file);
      return undefined;
    }
    const known = this.entries.get(file);
    if (known !== undefined && known.stamp === stamp) return known.value;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      this.entries.delete(file);
      return undefined;
    }
    const value = params.derive(text);
    this.entries.delete(file);
    this.entries.set(file, { stamp, value });
    if (this.entries.size > MEMO_FILES) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}
