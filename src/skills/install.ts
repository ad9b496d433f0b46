import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { scanForThreats } from '../threats/scan.js';
import { textOf } from './files.js';
import { parseSkillFile } from './front-matter.js';
import { copyFolder, defaultInstallLimits, extractArchive, type InstallLimits, type StageResult } from './install-stage.js';
import { loadSkills, MAX_SKILL_CHARS, SKILL_FILE } from './load.js';
import { pruneEmptyDirs } from './remove.js';
import { categoryPathProblem, newSkillNameProblem } from './names.js';

/** What an install did, or why it was refused (nothing in skills/ changed then). */
export type InstallResult =
  | { readonly ok: true; readonly name: string; readonly dir: string; readonly files: number; readonly bytes: number; readonly replaced: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/** How temp folders of installs start inside the profile's cache/. */
export const INSTALL_TEMP_PREFIX = 'skill-install-';

const refused = (reason: string): InstallResult => ({ ok: false, reason });

/** The folder of the staged copy that holds SKILL.md: the top, or its one folder; a string is why neither does. */
function skillRoot(params: { stage: string }): string | { reason: string } {
  const isFile = (p: string): boolean => existsSync(p) && lstatSync(p).isFile();
  if (isFile(path.join(params.stage, SKILL_FILE))) return params.stage;
  const top = readdirSync(params.stage);
  const only = top.length === 1 && top[0] !== undefined ? path.join(params.stage, top[0]) : undefined;
  if (only !== undefined && lstatSync(only).isDirectory() && isFile(path.join(only, SKILL_FILE))) return only;
  return { reason: `no ${SKILL_FILE} at the top, nor in a single top folder` };
}

/** Every file under `root`, relative paths with `/`. */
function filesUnder(params: { root: string }): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(params.root, rel)).sort()) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      if (lstatSync(path.join(params.root, relPath)).isDirectory()) walk(relPath);
      else out.push(relPath);
    }
  };
  walk('');
  return out;
}

/** Threat-scans every text file; the first finding, with its file. */
function scanFiles(params: { root: string; files: readonly string[] }): string | undefined {
  for (const rel of params.files) {
    const text = textOf({ bytes: readFileSync(path.join(params.root, rel)) });
    if (text === undefined) continue;
    const finding = scanForThreats({ text, source: 'skill' });
    if (finding !== undefined) return `${rel} is blocked by the threat scan: ${finding.reason} ("${finding.match}")`;
  }
  return undefined;
}

/** Renames `from` to `to`; across filesystems (skills/ a symlink elsewhere) copies next to `to` first, then renames (`from` stays). */
function moveDir(params: { from: string; to: string }): void {
  try {
    renameSync(params.from, params.to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const near = path.join(path.dirname(params.to), `.${path.basename(params.to)}.installing-${process.pid}`);
    cpSync(params.from, near, { recursive: true });
    try {
      renameSync(near, params.to);
    } catch (inner) {
      rmSync(near, { recursive: true, force: true });
      throw inner;
    }
  }
}

/** Stages `source` (a folder or an archive) into `stage`. */
async function stageSource(params: { source: string; stage: string; limits: InstallLimits }): Promise<StageResult> {
  const { source, stage, limits } = params;
  let stat: import('node:fs').Stats;
  try {
    stat = statSync(source);
  } catch (error) {
    return { ok: false, reason: `${source} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (stat.isDirectory()) {
    if (!existsSync(path.join(source, SKILL_FILE))) return { ok: false, reason: `${source} holds no ${SKILL_FILE}` };
    return copyFolder({ from: source, into: stage, limits });
  }
  if (stat.isFile() && /\.(tar\.gz|tgz|tar)$/i.test(source)) return extractArchive({ file: source, into: stage, limits });
  return { ok: false, reason: `${source} is neither a skill folder nor a .tar.gz/.tgz archive` };
}

/**
 * Installs a skill from a local folder (holding SKILL.md) or a `.tar.gz`/`.tgz` of one into
 * `skills/[category/]<name>/`. The source is first copied or extracted into a temp folder in `cacheDir` (same
 * filesystem as skills/, so the final step is one rename) with the limits and the archive checks of
 * install-stage.ts; then SKILL.md must parse (name, description), the name must be valid and not reserved, and
 * every text file must pass the threat scan. A skill of the same name (or the target folder) is refused unless
 * `force`, which replaces it. A URL is refused: nothing is fetched. The temp folder is always removed.
 */
export async function installSkill(params: {
  source: string;
  skillsDir: string;
  cacheDir: string;
  category?: string;
  force: boolean;
  /** The built-in commands' words (a skill doubles as /<name>, so these are refused as names). */
  reserved: readonly string[];
  limits?: InstallLimits;
}): Promise<InstallResult> {
  const { source, skillsDir } = params;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return refused(`${source} is a URL; install takes a local folder or .tar.gz and fetches nothing from the network (download it first)`);
  if (params.category !== undefined) {
    const problem = categoryPathProblem({ category: params.category });
    if (problem !== undefined) return refused(problem);
  }
  mkdirSync(params.cacheDir, { recursive: true, mode: 0o700 });
  const temp = mkdtempSync(path.join(params.cacheDir, INSTALL_TEMP_PREFIX));
  try {
    const stage = path.join(temp, 'stage');
    mkdirSync(stage, { mode: 0o700 });
    const staged = await stageSource({ source: path.resolve(source), stage, limits: params.limits ?? defaultInstallLimits });
    if (!staged.ok) return refused(staged.reason);
    const root = skillRoot({ stage });
    if (typeof root !== 'string') return refused(root.reason);
    const text = readFileSync(path.join(root, SKILL_FILE), 'utf8');
    if (text.length > MAX_SKILL_CHARS) return refused(`${SKILL_FILE} is larger than ${MAX_SKILL_CHARS} characters`);
    const parsed = parseSkillFile({ text });
    if (!parsed.ok) return refused(`${SKILL_FILE}: ${parsed.reason}`);
    const name = parsed.meta.name;
    const nameProblem = newSkillNameProblem({ name, reserved: params.reserved });
    if (nameProblem !== undefined) return refused(nameProblem);
    const files = filesUnder({ root });
    const threat = scanFiles({ root, files });
    if (threat !== undefined) return refused(threat);
    const target = path.join(skillsDir, ...(params.category !== undefined ? params.category.split('/') : []), name);
    const existing = new Set(loadSkills({ dir: skillsDir }).skills.filter((s) => s.meta.name === name).map((s) => s.dir));
    if (existsSync(target) || isLink(target)) existing.add(target);
    if (existing.size > 0 && !params.force) {
      const where = [...existing].map((d) => path.relative(skillsDir, d)).join(', ');
      return refused(`a skill named ${name} is already installed (skills/${where}); --force replaces it`);
    }
    mkdirSync(path.dirname(target), { recursive: true });
    // Replaced skills go aside next to themselves (same filesystem; skills/ loading skips dot-folders) until the new one is in.
    const aside = [...existing].map((dir) => ({ dir, to: path.join(path.dirname(dir), `.${path.basename(dir)}.replaced-${path.basename(temp)}`) }));
    for (const old of aside) renameSync(old.dir, old.to);
    try {
      moveDir({ from: root, to: target });
    } catch (error) {
      for (const old of aside) renameSync(old.to, old.dir);
      throw error;
    }
    for (const old of aside) {
      rmSync(old.to, { recursive: true, force: true });
      pruneEmptyDirs({ from: path.dirname(old.dir), stop: skillsDir });
    }
    const bytes = files.reduce((sum, rel) => sum + statSync(path.join(target, rel)).size, 0);
    return { ok: true, name, dir: target, files: files.length, bytes, replaced: aside.map((a) => a.dir) };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** True when `p` is a symlink (existsSync follows links, so a dangling one looks absent). */
function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
