import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Folders never searched for projects (dependencies and build output are big and never hold one worth a checkpoint). */
const SKIPPED = new Set(['.git', 'node_modules', '.venv', 'venv', '__pycache__', 'dist', 'build', 'target']);

/** Whether `dir` holds a git repository of its own (a `.git` folder, or a `.git` file of a worktree or submodule). */
async function holdsRepo(dir: string): Promise<boolean> {
  return (await stat(path.join(dir, '.git')).catch(() => undefined)) !== undefined;
}

/**
 * The folder a change under `target` is snapshotted from: the nearest folder between it and the workspace that holds
 * a git repository of its own (a project cloned into the workspace, whose files git would otherwise record only as a
 * link), else the workspace itself.
 */
export async function snapshotRootOf(params: { workspace: string; target: string }): Promise<string> {
  const workspace = path.resolve(params.workspace);
  let dir = path.dirname(path.resolve(workspace, params.target));
  if (path.resolve(params.target) === workspace) return workspace;
  while (dir !== workspace && dir.startsWith(`${workspace}${path.sep}`)) {
    if (await holdsRepo(dir)) return dir;
    dir = path.dirname(dir);
  }
  return workspace;
}

/** The projects (folders holding their own git repository) inside the workspace, at most `depth` levels down. */
export async function nestedRoots(params: { workspace: string; depth: number }): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, level: number): Promise<void> => {
    if (level > params.depth) return;
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (await holdsRepo(full)) found.push(full);
      await walk(full, level + 1);
    }
  };
  await walk(path.resolve(params.workspace), 1);
  return found;
}
