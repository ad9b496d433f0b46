import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { SKILL_FILE } from './load.js';

/** Folders of a skill that write_file and remove_file may touch (agentskills.io's layout). */
export const SUPPORTING_DIRS: readonly string[] = ['references', 'templates', 'scripts', 'assets'];

/** Most bytes of one supporting file (write_file) or of a file skill_view returns. */
export const MAX_SUPPORTING_FILE_BYTES = 1024 * 1024;

/** Most supporting files listed after a skill's body. */
const MAX_LISTED_FILES = 100;

/** A path inside a skill's folder, or why it is refused. */
export type SkillPath = { readonly ok: true; readonly file: string; readonly rel: string } | { readonly ok: false; readonly reason: string };

/** True when `child` is `parent` or inside it (both absolute, normalised). */
function within(params: { parent: string; child: string }): boolean {
  const rel = path.relative(params.parent, params.child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The deepest existing ancestor of `file` (itself when it exists), as a real path; undefined when none resolves. */
function realAncestor(params: { file: string }): string | undefined {
  let at = params.file;
  for (;;) {
    try {
      return realpathSync(at);
    } catch {
      const up = path.dirname(at);
      if (up === at) return undefined;
      at = up;
    }
  }
}

/**
 * True when `target` (which need not exist yet) would really land outside the skills/ folder `root`: some folder on
 * the way is a symlink to elsewhere. A missing skills/ folder is not outside.
 */
export function leadsOutside(params: { root: string; target: string }): boolean {
  const root = realAncestor({ file: params.root });
  const real = realAncestor({ file: params.target });
  if (root === undefined || real === undefined) return true;
  return !within({ parent: root, child: real });
}

/**
 * Resolves `filePath` inside the skill folder `dir`: relative, no `..` segment, and no symlink on the way that leads
 * out of the folder. `supporting` also requires it to be a file under references/, templates/, scripts/ or assets/.
 */
export function resolveSkillPath(params: { dir: string; filePath: string; supporting: boolean }): SkillPath {
  const raw = params.filePath.trim();
  if (raw === '') return { ok: false, reason: 'file_path is required.' };
  if (raw.includes('\0')) return { ok: false, reason: 'file_path contains a NUL character.' };
  if (path.isAbsolute(raw) || /^[a-zA-Z]:[\\/]/.test(raw) || raw.startsWith('\\')) return { ok: false, reason: `file_path must be relative to the skill's folder, not absolute: '${raw}'.` };
  const parts = raw.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { ok: false, reason: "Path traversal ('..') is not allowed in file_path." };
  if (parts.length === 0) return { ok: false, reason: 'file_path is required.' };
  if (params.supporting) {
    const first = parts[0] ?? '';
    if (!SUPPORTING_DIRS.includes(first)) return { ok: false, reason: `File must be under one of: ${SUPPORTING_DIRS.join(', ')}. Got: '${raw}'.` };
    if (parts.length < 2) return { ok: false, reason: `Provide a file path, not just a directory. Example: '${first}/notes.md'.` };
  }
  const rel = parts.join('/');
  const file = path.join(params.dir, ...parts);
  const root = realAncestor({ file: params.dir });
  const real = realAncestor({ file });
  if (root === undefined || real === undefined || !within({ parent: root, child: real })) {
    return { ok: false, reason: `file_path '${raw}' leads out of the skill's folder (through a symbolic link); refused.` };
  }
  return { ok: true, file, rel };
}

/** The files of a skill's folder other than SKILL.md (relative paths, sorted; dot-files and symlinks left out). */
export function supportingFiles(params: { dir: string }): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number): void => {
    if (found.length >= MAX_LISTED_FILES || depth > 4) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(path.join(params.dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_LISTED_FILES) return;
      if (entry.name.startsWith('.')) continue;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child, depth + 1);
      else if (entry.isFile() && child !== SKILL_FILE) found.push(child);
    }
  };
  walk('', 0);
  return found;
}

/** True when `file` exists and is a regular file (not followed through a symlink). */
export function isPlainFile(params: { file: string }): boolean {
  try {
    return lstatSync(params.file).isFile();
  } catch {
    return false;
  }
}

/** The text of a file's bytes, or undefined when it is binary (a NUL byte, or not valid UTF-8). */
export function textOf(params: { bytes: Buffer }): string | undefined {
  if (params.bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(params.bytes);
  } catch {
    return undefined;
  }
}
