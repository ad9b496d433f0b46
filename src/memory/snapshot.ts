import path from 'node:path';
import { scanForThreats } from '../threats/scan.js';
import { FileMemo } from '../util/file-memo.js';
import { ENTRY_DELIMITER, ENTRY_SEPARATOR, entriesChars, parseEntries } from './format.js';

export { ENTRY_SEPARATOR, parseEntries };

/** What the memory layer of the system prompt shows. */
export interface MemorySnapshotParams {
  /** The profile's memories/ folder. */
  readonly memoriesDir: string;
  readonly memoryEnabled: boolean;
  readonly userEnabled: boolean;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
}

/** The entries of one file as the prompt shows them (screened), or none when it is missing or unreadable; exact duplicates dropped. */
function screenedEntries(params: { file: string; fileName: string }): readonly string[] {
  const { fileName } = params;
  return entryFiles.read({ file: params.file, derive: (text) => screened({ entries: [...new Set(parseEntries({ text }))], fileName }) }) ?? [];
}

/** The memory files' entries, parsed and screened again only once a file changes (every new session's prompt shows them). */
const entryFiles = new FileMemo<readonly string[]>();

/**
 * Entries as the prompt shows them: one that the threat scan flags (a hand edit or another program wrote it; the
 * memory tool refuses such writes) is replaced by a `[BLOCKED: ...]` line, so it never reaches the model.
 */
function screened(params: { entries: readonly string[]; fileName: string }): string[] {
  return params.entries.map((entry) => {
    const finding = scanForThreats({ text: entry, source: 'memory' });
    return finding === undefined ? entry : `[BLOCKED: ${params.fileName} entry: ${finding.reason} (${finding.id}); remove it with the memory tool or \`hermes memory edit\`]`;
  });
}

/** One file's block: a header with its usage, then its entries separated by `§` lines. */
function block(params: { title: string; entries: readonly string[]; limit: number }): string {
  const used = entriesChars({ entries: params.entries });
  const percent = Math.round((used / params.limit) * 100);
  return `${params.title} [${percent}% — ${used}/${params.limit} chars]\n${params.entries.join(ENTRY_DELIMITER)}`;
}

/**
 * The memory snapshot for a session's system prompt: MEMORY.md and USER.md as they are now (empty string when both
 * are empty or off). Frozen into the session's prompt by the caller; writes show from the next session on.
 */
export function memorySnapshot(params: MemorySnapshotParams): string {
  const parts: string[] = [];
  if (params.memoryEnabled) {
    const entries = screenedEntries({ file: path.join(params.memoriesDir, 'MEMORY.md'), fileName: 'MEMORY.md' });
    if (entries.length > 0) parts.push(block({ title: 'MEMORY (your personal notes)', entries, limit: params.memoryCharLimit }));
  }
  if (params.userEnabled) {
    const entries = screenedEntries({ file: path.join(params.memoriesDir, 'USER.md'), fileName: 'USER.md' });
    if (entries.length > 0) parts.push(block({ title: 'USER PROFILE (who the user is)', entries, limit: params.userCharLimit }));
  }
  return parts.join('\n\n');
}
