import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../core/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { leadsOutside } from './files.js';
import { SKILL_FILE } from './load.js';
import { assertSkillText, locateSkill, recordedSession } from './manage-checks.js';
import { categoryPathProblem, newSkillNameProblem } from './names.js';
import type { SkillCatalog } from './types.js';

/**
 * `create`: validates the name (pattern, length, not a gateway command, not taken) and category, checks the whole
 * SKILL.md, records the session in `source_session` (none without one, whatever the content claims), and writes skills/[<category>/]<name>/SKILL.md atomically.
 */
export function createSkill(params: {
  root: string;
  catalog: SkillCatalog;
  name: string;
  category?: string | undefined;
  content?: string | undefined;
  reservedNames: readonly string[];
  sessionId?: string | undefined;
}): string {
  const { root, name } = params;
  const bad = newSkillNameProblem({ name, reserved: params.reservedNames });
  if (bad !== undefined) throw new ToolError(bad);
  const category = params.category?.trim() ?? '';
  if (category !== '') {
    const badCategory = categoryPathProblem({ category });
    if (badCategory !== undefined) throw new ToolError(badCategory);
  }
  if (params.content === undefined) throw new ToolError("content is required for 'create': the whole SKILL.md (YAML front matter with name and description, then the instructions).");
  const existing = locateSkill({ catalog: params.catalog, root, name });
  if (existing.kind !== 'missing') throw new ToolError(`A skill named '${name}' already exists at ${path.relative(root, existing.dir)}. Use action 'patch' or 'edit' to change it.`);
  const dir = category === '' ? path.join(root, name) : path.join(root, ...category.split('/'), name);
  if (leadsOutside({ root, target: dir })) throw new ToolError(`The category folder ${category} is a symbolic link out of the skills folder; a new skill is not written there. Choose another category.`);
  if (existsSync(dir)) throw new ToolError(`The folder ${path.relative(root, dir)} already exists (it holds no usable SKILL.md); choose another name or remove it.`);
  const text = recordedSession({ text: params.content, sessionId: params.sessionId !== '' ? params.sessionId : undefined });
  assertSkillText({ text, names: [name] });
  mkdirSync(dir, { recursive: true });
  try {
    writeFileAtomic({ file: path.join(dir, SKILL_FILE), text });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const where = path.relative(root, dir).split(path.sep).join('/');
  return (
    `Skill '${name}' created at skills/${where}/${SKILL_FILE}. It is listed in the skills index from the next session on; ` +
    `skill_view shows it now. To add reference files, templates or scripts, use skill_manage action 'write_file' with file_path e.g. 'references/example.md'.`
  );
}
