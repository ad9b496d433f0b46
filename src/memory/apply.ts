import type { MemoryWrite } from './capability.js';
import { entriesChars, grouped, preview } from './format.js';

/** What applying one write to a file's entries gives: the new entries (and whether they changed), or why not. */
export type ApplyOutcome =
  | { readonly ok: true; readonly entries: readonly string[]; readonly changed: boolean; readonly summary: string }
  | { readonly ok: false; readonly reason: string };

/** Numbered one-line previews of entries ("  3. …"), numbers counted over the whole file. */
export function numberedPreviews(params: { entries: readonly string[]; indexes?: readonly number[]; width?: number }): string {
  const indexes = params.indexes ?? params.entries.map((_, i) => i);
  return indexes.map((i) => `  ${i + 1}. ${preview({ entry: params.entries[i] ?? '', width: params.width ?? 80 })}`).join('\n');
}

/** The entries a substring picks: exactly one, or a reason listing the candidates. */
function findOne(params: { entries: readonly string[]; oldText: string; fileName: string; action: string }): { ok: true; index: number } | { ok: false; reason: string } {
  const { entries, oldText, fileName } = params;
  const matches = entries.flatMap((entry, i) => (entry.includes(oldText) ? [i] : []));
  const quoted = JSON.stringify(preview({ entry: oldText, width: 60 }));
  if (matches.length === 1 && matches[0] !== undefined) return { ok: true, index: matches[0] };
  if (matches.length === 0) {
    if (entries.length === 0) return { ok: false, reason: `${fileName} has no entries yet, so there is nothing to ${params.action}.` };
    return {
      ok: false,
      reason: `No entry of ${fileName} contains ${quoted} (the match is exact, case and spaces included). Its entries:\n${numberedPreviews({ entries })}\nRetry with old_text copied from the entry you mean.`,
    };
  }
  return {
    ok: false,
    reason: `${matches.length} entries of ${fileName} contain ${quoted}; old_text must match exactly one. Candidates:\n${numberedPreviews({ entries, indexes: matches })}\nRetry with a longer old_text that only the entry you mean contains.`,
  };
}

/** Refuses a result past the limit unless it shrinks the file (a hand-edited file may already be over). */
function overLimit(params: { before: readonly string[]; after: readonly string[]; limit: number; fileName: string; what: string }): string | undefined {
  const used = entriesChars({ entries: params.before });
  const next = entriesChars({ entries: params.after });
  if (next <= params.limit || next <= used) return undefined;
  return [
    `${params.fileName} is full: ${grouped({ n: used })}/${grouped({ n: params.limit })} chars used; ${params.what} needs ${grouped({ n: next - used })} more`,
    ` (${grouped({ n: next - params.limit })} over the limit). Nothing was saved.`,
    ` Consolidate first: merge related entries into one shorter entry with action "replace", or drop stale ones with "remove", then retry.`,
    ` Current entries:\n${numberedPreviews({ entries: params.before, width: 160 })}`,
  ].join('');
}

/**
 * Applies one memory write to a file's entries (pure; the caller re-read them under the lock). Add appends (an
 * exact duplicate is a no-op that says so); replace and remove pick the entry by `oldText`, which must be part of
 * exactly one entry. Content is trimmed; a result past `limit` is refused with the usage figures, never cut.
 */
export function applyWrite(params: { entries: readonly string[]; write: MemoryWrite; limit: number; fileName: string }): ApplyOutcome {
  const { entries, write, limit, fileName } = params;
  const content = write.content?.trim() ?? '';
  const oldText = write.oldText?.trim() ?? '';
  switch (write.action) {
    case 'add': {
      if (content === '') return { ok: false, reason: 'action "add" needs content: the entry to save.' };
      if (entries.includes(content)) return { ok: true, entries, changed: false, summary: `This entry is already in ${fileName}; nothing was added.` };
      const after = [...entries, content];
      const refused = overLimit({ before: entries, after, limit, fileName, what: 'this entry' });
      if (refused !== undefined) return { ok: false, reason: refused };
      return { ok: true, entries: after, changed: true, summary: `Entry added to ${fileName}.` };
    }
    case 'replace': {
      if (oldText === '') return { ok: false, reason: `action "replace" needs old_text: part of the entry to replace. Entries of ${fileName}:\n${numberedPreviews({ entries })}` };
      if (content === '') return { ok: false, reason: 'action "replace" needs content: the new text of the entry (use "remove" to delete it).' };
      const found = findOne({ entries, oldText, fileName, action: 'replace' });
      if (!found.ok) return found;
      if (entries[found.index] === content) return { ok: true, entries, changed: false, summary: `Entry ${found.index + 1} of ${fileName} already reads like that; nothing changed.` };
      const duplicate = entries.includes(content);
      const after = duplicate
        ? entries.filter((_, i) => i !== found.index)
        : entries.map((entry, i) => (i === found.index ? content : entry));
      const refused = overLimit({ before: entries, after, limit, fileName, what: 'this replacement' });
      if (refused !== undefined) return { ok: false, reason: refused };
      const summary = duplicate
        ? `Entry ${found.index + 1} of ${fileName} removed: its new text was already another entry.`
        : `Entry ${found.index + 1} of ${fileName} replaced.`;
      return { ok: true, entries: after, changed: true, summary };
    }
    case 'remove': {
      if (oldText === '') return { ok: false, reason: `action "remove" needs old_text: part of the entry to remove. Entries of ${fileName}:\n${numberedPreviews({ entries })}` };
      const found = findOne({ entries, oldText, fileName, action: 'remove' });
      if (!found.ok) return found;
      return { ok: true, entries: entries.filter((_, i) => i !== found.index), changed: true, summary: `Entry ${found.index + 1} of ${fileName} removed.` };
    }
  }
}
