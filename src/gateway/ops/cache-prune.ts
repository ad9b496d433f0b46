import { readdir, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Deletes files under `dir` last modified before `before` (ms), and folders left empty; returns how many
 * files went. Downloaded media is only needed while its turn runs, so the cache cannot grow for ever. An empty folder
 * goes only when this pass emptied it or it is itself older than `before`: a download that has just made its folder
 * (and not yet opened its file) keeps it.
 */
export async function pruneCache(params: { dir: string; before: number }): Promise<number> {
  let removed = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(params.dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(params.dir, entry.name);
    if (entry.isDirectory()) {
      const inside = await pruneCache({ dir: full, before: params.before });
      removed += inside;
      const info = inside > 0 ? undefined : await stat(full).catch(() => undefined);
      if (inside > 0 || (info !== undefined && info.mtimeMs < params.before)) await rmdir(full).catch(() => undefined); // only succeeds when empty
    } else if (entry.isFile()) {
      const info = await stat(full).catch(() => undefined);
      if (info && info.mtimeMs < params.before) {
        await unlink(full).catch(() => undefined);
        removed += 1;
      }
    }
  }
  return removed;
}
