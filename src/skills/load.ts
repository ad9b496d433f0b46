import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { scanForThreats } from '../threats/scan.js';
import { parseSkillFile } from './front-matter.js';
import type { BrokenSkill, Skill, SkillCatalog, SkillsLogger } from './types.js';

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/** Most characters a SKILL.md may hold (a bigger one is listed as broken, never put in front of the model). */
export const MAX_SKILL_CHARS = 100_000;

/** Folders of skills/ looked into: skills/<name>/, skills/<category>/<name>/, one more level for nested categories. */
const MAX_DEPTH = 3;

/** True when `p` is a folder, or a link to one (a skill folder symlinked into skills/). */
function isDirAt(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The SKILL.md files under `root`, relative paths, not descending into a skill's own folder or dot-folders. */
function skillFiles(params: { root: string }): string[] {
  const found: string[] = [];
  // No skills/ yet (a new profile): asked per new session's prompt, so without building a readdir exception.
  if (!existsSync(params.root)) return found;
  const walk = (rel: string, depth: number): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(path.join(params.root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    if (rel !== '' && entries.some((e) => e.name === SKILL_FILE && (e.isFile() || e.isSymbolicLink()))) {
      found.push(path.join(rel, SKILL_FILE));
      return;
    }
    if (depth >= MAX_DEPTH) return;
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || !(entry.isDirectory() || (entry.isSymbolicLink() && isDirAt(path.join(params.root, rel, entry.name))))) continue;
      walk(path.join(rel, entry.name), depth + 1);
    }
  };
  walk('', 0);
  return found;
}

/** Most SKILL.md checks remembered (see `checked`); past it the memo starts over. */
const MAX_CHECKED = 2000;

/**
 * Checks already done, one per SKILL.md path, with the file's inode, size and change times when it was checked: a
 * changed or replaced file (writes are atomic renames: a new inode) does not match and is checked again, its entry
 * replaced; loadSkills drops the entries of files under its folder that are gone. So the memo holds the skills on
 * disk now, however many were edited, created and deleted over days. Parsing and the threat scan of 100 skills cost
 * about 70 ms; with this a tool call's loadSkills is a stat per skill.
 */
const checked = new Map<string, { readonly signature: string; readonly read: Skill | string }>();

/** How many SKILL.md checks are remembered now (for tests of the memo's bound). */
export function rememberedChecks(): number {
  return checked.size;
}

/** Reads and checks one SKILL.md; a string is the reason it is broken. */
function readSkill(params: { root: string; rel: string }): Skill | string {
  const file = path.join(params.root, params.rel);
  let signature: string;
  try {
    const stat = statSync(file);
    if (stat.size > MAX_SKILL_CHARS * 4) {
      checked.delete(file);
      return `SKILL.md is larger than ${MAX_SKILL_CHARS} characters`;
    }
    signature = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  } catch (error) {
    checked.delete(file);
    return `SKILL.md could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const known = checked.get(file);
  if (known !== undefined && known.signature === signature) return known.read;
  const read = checkSkill({ root: params.root, rel: params.rel, file });
  if (!checked.has(file) && checked.size >= MAX_CHECKED) checked.clear();
  checked.set(file, { signature, read });
  return read;
}

/** Forgets the checks of SKILL.md files under `root` that the last walk did not find (deleted or moved skills). */
function forgetGone(params: { root: string; found: ReadonlySet<string> }): void {
  const prefix = path.join(params.root, path.sep);
  for (const file of checked.keys()) {
    if (file.startsWith(prefix) && !params.found.has(file)) checked.delete(file);
  }
}

/** Reads, parses and threat-scans one SKILL.md; a string is the reason it is broken. */
function checkSkill(params: { root: string; rel: string; file: string }): Skill | string {
  const { file } = params;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return `SKILL.md could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (text.length > MAX_SKILL_CHARS) return `SKILL.md is larger than ${MAX_SKILL_CHARS} characters`;
  const parsed = parseSkillFile({ text });
  if (!parsed.ok) return parsed.reason;
  const threat = scanForThreats({ text, source: 'skill' });
  if (threat !== undefined) return `blocked by the threat scan: ${threat.reason} ("${threat.match}")`;
  const dir = path.dirname(file);
  const parent = path.dirname(params.rel);
  const categoryPath = path.dirname(parent);
  const category = categoryPath === '.' ? null : categoryPath.split(path.sep).join('/');
  return { meta: parsed.meta, category, dir, file, body: parsed.body };
}

/**
 * Reads every skill of a profile's skills/ folder: skills/<name>/SKILL.md and skills/<category>/<name>/SKILL.md.
 * A file that does not parse, lacks name or description, is too big, repeats another skill's name or fails the
 * threat scan is left out, logged once, and listed in `broken`. Never throws (a missing folder is no skills).
 */
export function loadSkills(params: { dir: string; logger?: SkillsLogger }): SkillCatalog {
  const skills: Skill[] = [];
  const broken: BrokenSkill[] = [];
  const seen = new Map<string, string>();
  const files = skillFiles({ root: params.dir });
  forgetGone({ root: params.dir, found: new Set(files.map((rel) => path.join(params.dir, rel))) });
  for (const rel of files) {
    const read = readSkill({ root: params.dir, rel });
    const other = typeof read === 'string' ? undefined : seen.get(read.meta.name);
    const reason = typeof read === 'string' ? read : other !== undefined ? `another skill has the name ${read.meta.name} (${other})` : undefined;
    if (typeof read === 'string' || reason !== undefined) {
      broken.push({ path: rel, reason: reason ?? '' });
      params.logger?.warn({ skill: rel, reason }, 'skill left out');
      continue;
    }
    seen.set(read.meta.name, rel);
    skills.push(read);
  }
  skills.sort((a, b) => (a.category ?? '').localeCompare(b.category ?? '') || a.meta.name.localeCompare(b.meta.name));
  return { skills, broken };
}

/** The skill called `name` (its front matter name, or its folder's name), if it is usable now. */
export function findSkill(params: { catalog: SkillCatalog; name: string }): Skill | undefined {
  const { catalog, name } = params;
  return catalog.skills.find((s) => s.meta.name === name) ?? catalog.skills.find((s) => path.basename(s.dir) === name);
}

/** Operating-system names a skill's `platforms` may use, mapped to Node's process.platform. */
const osNames: Readonly<Record<string, NodeJS.Platform>> = { linux: 'linux', macos: 'darwin', darwin: 'darwin', osx: 'darwin', windows: 'win32', win32: 'win32' };

/**
 * True when a skill applies here. `platforms` may name operating systems (Hermes Agent's use: linux, macos, windows)
 * and messaging platforms (telegram, slack, ...); each kind that is named must include the current one.
 */
export function skillApplies(params: { skill: Skill; platform: string; os?: NodeJS.Platform }): boolean {
  const listed = params.skill.meta.platforms;
  if (listed.length === 0) return true;
  const os = params.os ?? process.platform;
  const oses = listed.filter((p) => osNames[p] !== undefined);
  const messaging = listed.filter((p) => osNames[p] === undefined);
  const osOk = oses.length === 0 || oses.some((p) => osNames[p] === os);
  const platformOk = messaging.length === 0 || messaging.includes(params.platform.toLowerCase());
  return osOk && platformOk;
}
