import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { findSkill, loadSkills, SKILL_FILE } from '../skills/load.js';
import type { Skill, SkillCatalog } from '../skills/types.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** Widest a description gets in `hermes skills list`. */
const DESCRIPTION_WIDTH = 72;

/** `text` on one line, cut to `width` characters with an ellipsis. */
export function oneLine(params: { text: string; width: number }): string {
  const flat = params.text.replace(/\s+/g, ' ').trim();
  return flat.length <= params.width ? flat : `${flat.slice(0, params.width - 1).trimEnd()}…`;
}

/** "1 skill" / "2 skills". */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `hermes skills list`: every usable skill (name, category, version, description on one line), then the broken
 * ones with why they were left out, then the counts. Exit 0 (broken skills are reported, not an error).
 */
export async function skillsList(params: { options: GlobalOptions; io: CliIO }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile(params);
  const scrub = (text: string): string => loaded.redactor.scrub(text);
  const catalog = loadSkills({ dir: loaded.profile.skillsDir });
  const out = (text: string): void => println({ stream: io.stdout, text: scrub(text) });
  if (catalog.skills.length > 0) {
    const rows = catalog.skills.map((s) => [s.meta.name, s.category ?? '-', s.meta.version ?? '-', oneLine({ text: s.meta.description, width: DESCRIPTION_WIDTH })] as const);
    const header = ['NAME', 'CATEGORY', 'VERSION', 'DESCRIPTION'] as const;
    const widths = [0, 1, 2].map((i) => Math.max(header[i]?.length ?? 0, ...rows.map((r) => r[i]?.length ?? 0)));
    const line = (cells: readonly string[]): string => cells.map((c, i) => (i < 3 ? c.padEnd(widths[i] ?? 0) : c)).join('  ');
    out(line(header));
    for (const row of rows) out(line(row));
  } else {
    out(`no skills in ${loaded.profile.skillsDir}`);
  }
  if (catalog.broken.length > 0) {
    out('');
    out(`broken (left out of the prompt; fix or delete them):`);
    for (const b of catalog.broken) out(`  ${b.path}: ${b.reason}`);
  }
  out('');
  out(`${count(catalog.skills.length, 'skill')}, ${catalog.broken.length} broken`);
  return 0;
}

/** Files of a skill's folder other than SKILL.md, relative paths with their sizes. */
export function supportingFiles(params: { skill: Skill }): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(path.join(params.skill.dir, rel)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      if (relPath === SKILL_FILE) continue;
      try {
        const stat = statSync(path.join(params.skill.dir, relPath));
        if (stat.isDirectory()) walk(relPath);
        else out.push({ path: relPath, bytes: stat.size });
      } catch {
        // a dangling link: not a file of the skill
      }
    }
  };
  walk('');
  return out;
}

/** Levenshtein distance of two short strings. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** Names of skills close to `name` (a typo away, or containing it), at most five. */
export function closeNames(params: { catalog: SkillCatalog; name: string }): string[] {
  const wanted = params.name.toLowerCase();
  return params.catalog.skills
    .map((s) => s.meta.name)
    .filter((n) => n.includes(wanted) || wanted.includes(n) || distance(n, wanted) <= Math.max(2, Math.floor(wanted.length / 3)))
    .slice(0, 5);
}

/** The error lines for a name that is no usable skill: a broken skill of that folder name, or close names. */
export function unknownSkillLines(params: { catalog: SkillCatalog; name: string }): string[] {
  const { catalog, name } = params;
  const broken = catalog.broken.filter((b) => path.basename(path.dirname(b.path)) === name);
  if (broken.length > 0) return broken.map((b) => `error: skill ${name} is broken (skills/${b.path}): ${b.reason}`);
  const close = closeNames({ catalog, name });
  const hint = close.length > 0 ? `hint: did you mean ${close.join(', ')}?` : 'hint: `hermes skills list` shows the skills.';
  return [`error: no skill "${name}"`, hint];
}

/** `hermes skills show NAME`: its front matter fields, where it is, its supporting files, then the body. Exit 1 for an unknown name. */
export async function skillsShow(params: { options: GlobalOptions; io: CliIO; name: string }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile(params);
  const scrub = (text: string): string => loaded.redactor.scrub(text);
  const catalog = loadSkills({ dir: loaded.profile.skillsDir });
  const skill = findSkill({ catalog, name: params.name });
  if (skill === undefined) {
    for (const line of unknownSkillLines({ catalog, name: params.name })) println({ stream: io.stderr, text: scrub(line) });
    return 1;
  }
  const { meta } = skill;
  const out = (text: string): void => println({ stream: io.stdout, text: scrub(text) });
  out(`name:        ${meta.name}`);
  out(`description: ${meta.description}`);
  if (meta.version !== undefined) out(`version:     ${meta.version}`);
  if (meta.tags.length > 0) out(`tags:        ${meta.tags.join(', ')}`);
  if (meta.platforms.length > 0) out(`platforms:   ${meta.platforms.join(', ')}`);
  if (meta.sourceSession !== undefined) out(`source_session: ${meta.sourceSession}`);
  out(`category:    ${skill.category ?? '-'}`);
  out(`path:        ${skill.file}`);
  const files = supportingFiles({ skill });
  out(files.length === 0 ? 'files:       (none besides SKILL.md)' : 'files:');
  for (const f of files) out(`  ${f.path} (${f.bytes.toLocaleString('en-US')} bytes)`);
  out('');
  out(skill.body.replace(/\s+$/, ''));
  return 0;
}
