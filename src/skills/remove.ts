import { lstatSync, readdirSync, realpathSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/** True when `child` is strictly inside `parent` (both absolute, not resolved through links). */
export function isInside(params: { parent: string; child: string }): boolean {
  const rel = path.relative(params.parent, params.child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Removes the empty folders from `from` up to (never including) `stop`, and nothing outside `stop`. */
export function pruneEmptyDirs(params: { from: string; stop: string }): void {
  let dir = params.from;
  while (isInside({ parent: params.stop, child: dir })) {
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
    dir = path.dirname(dir);
  }
}

/** A skill folder removed (`link`: it was a symlink, and only the link went), or why it was not. */
export type RemoveResult = { readonly ok: true; readonly link: boolean } | { readonly ok: false; readonly reason: string };

/**
 * Where a skill folder under `skillsDir` may be removed from: lexically inside skills/, and its parent really inside it
 * too (a category that is a symlink to elsewhere would make a recursive delete reach outside skills/). A folder that
 * is itself a symlink counts as a link (only the link is removed, never what it points to).
 */
export function removalCheck(params: { skillsDir: string; dir: string }): RemoveResult {
  const { skillsDir, dir } = params;
  const rel = path.relative(skillsDir, dir);
  const outside: RemoveResult = { ok: false, reason: `skills/${rel} lies outside the skills folder (through a symlinked folder); nothing was deleted` };
  if (!isInside({ parent: skillsDir, child: dir })) return outside;
  try {
    const realSkills = realpathSync(skillsDir);
    const realParent = realpathSync(path.dirname(dir));
    if (!(realParent === realSkills || isInside({ parent: realSkills, child: realParent }))) return outside;
    return { ok: true, link: lstatSync(dir).isSymbolicLink() };
  } catch (error) {
    return { ok: false, reason: `skills/${rel} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing was deleted` };
  }
}

/**
 * Removes a skill's folder (the one delete both skill_manage and `hermes skills delete` use): after removalCheck, a
 * symlinked folder loses only its link, a real one is removed with its files, and category folders it leaves empty go.
 */
export function removeSkillFolder(params: { skillsDir: string; dir: string }): RemoveResult {
  const check = removalCheck(params);
  if (!check.ok) return check;
  if (check.link) unlinkSync(params.dir);
  else rmSync(params.dir, { recursive: true, force: true });
  pruneEmptyDirs({ from: path.dirname(params.dir), stop: params.skillsDir });
  return check;
}
