import path from 'node:path';
import { findSkill, loadSkills } from '../skills/load.js';
import { removalCheck, removeSkillFolder } from '../skills/remove.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { readLine } from './profile-delete.js';
import { unknownSkillLines } from './skills-cmd.js';

/**
 * `hermes skills delete NAME [--yes]`: removes the skill's folder (a usable skill by name, or a broken one by its
 * folder name). The folder must lie inside skills/ (a symlinked skill folder: only the link is removed); an emptied
 * category folder goes too. Asks on a terminal unless `yes`; without a terminal and without `yes` it refuses.
 */
export async function skillsDelete(params: { options: GlobalOptions; io: CliIO; name: string; yes: boolean }): Promise<number> {
  const { io, name } = params;
  const loaded = await loadExistingProfile(params);
  const skillsDir = loaded.profile.skillsDir;
  const err = (text: string): void => println({ stream: io.stderr, text: loaded.redactor.scrub(text) });
  const catalog = loadSkills({ dir: skillsDir });
  const found = findSkill({ catalog, name })?.dir;
  const brokenDir = catalog.broken.map((b) => path.join(skillsDir, path.dirname(b.path))).find((d) => path.basename(d) === name);
  const dir = found ?? brokenDir;
  if (dir === undefined) {
    for (const line of unknownSkillLines({ catalog, name })) err(line);
    return 1;
  }
  const rel = path.relative(skillsDir, dir);
  const check = removalCheck({ skillsDir, dir });
  if (!check.ok) {
    err(`error: ${check.reason}`);
    err('hint: remove it by hand if you mean to.');
    return 1;
  }
  const link = check.link;
  if (!params.yes) {
    if (!io.isTTY) {
      err(`error: not deleting skills/${rel} without confirmation: pass --yes (no terminal to ask on)`);
      return 1;
    }
    io.stdout.write(`Delete skill ${name} (${link ? 'the symlink ' : ''}${dir})? [y/N] `);
    const answer = await readLine({ input: io.stdin });
    if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
      err(`aborted: ${answer === null ? 'no answer' : 'not confirmed'}; nothing was deleted`);
      return 1;
    }
  }
  const removed = removeSkillFolder({ skillsDir, dir });
  if (!removed.ok) {
    err(`error: ${removed.reason}`);
    return 1;
  }
  println({ stream: io.stdout, text: `deleted skill ${name} (${link ? 'removed the symlink ' : ''}skills/${rel})` });
  return 0;
}
