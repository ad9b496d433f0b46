import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The line that separates two entries of a memory file (Hermes's format). */
export const ENTRY_SEPARATOR = '§';

/** What the memory layer of the system prompt shows. */
export interface MemorySnapshotParams {
  /** The profile's memories/ folder. */
  readonly memoriesDir: string;
  readonly memoryEnabled: boolean;
  readonly userEnabled: boolean;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
}

/** Entries of a memory file's text: blocks between lines holding only `§`, trimmed, empty ones dropped. */
export function parseEntries(params: { text: string }): string[] {
  return params.text
    .split(/^[ \t]*§[ \t]*$/m)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The entries of one file, or none when it is missing or unreadable. */
function readEntries(params: { file: string }): string[] {
  try {
    return parseEntries({ text: readFileSync(params.file, 'utf8') });
  } catch {
    return [];
  }
}

/** One file's block: a header with its usage, then its entries separated by `§` lines. */
function block(params: { title: string; entries: readonly string[]; limit: number }): string {
  const body = params.entries.join(`\n${ENTRY_SEPARATOR}\n`);
  const used = body.length;
  const percent = Math.round((used / params.limit) * 100);
  return `${params.title} [${percent}% — ${used}/${params.limit} chars]\n${body}`;
}

/**
 * The memory snapshot for a session's system prompt: MEMORY.md and USER.md as they are now (empty string when both
 * are empty or off). Frozen into the session's prompt by the caller; writes show from the next session on.
 */
export function memorySnapshot(params: MemorySnapshotParams): string {
  const parts: string[] = [];
  if (params.memoryEnabled) {
    const entries = readEntries({ file: path.join(params.memoriesDir, 'MEMORY.md') });
    if (entries.length > 0) parts.push(block({ title: 'MEMORY (your personal notes)', entries, limit: params.memoryCharLimit }));
  }
  if (params.userEnabled) {
    const entries = readEntries({ file: path.join(params.memoriesDir, 'USER.md') });
    if (entries.length > 0) parts.push(block({ title: 'USER PROFILE (who the user is)', entries, limit: params.userCharLimit }));
  }
  return parts.join('\n\n');
}
