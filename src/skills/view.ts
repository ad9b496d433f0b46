import { readFileSync, statSync } from 'node:fs';
import { ToolError } from '../core/errors.js';
import { MAX_SUPPORTING_FILE_BYTES, resolveSkillPath, supportingFiles, textOf } from './files.js';
import type { Skill, SkillCatalog } from './types.js';

/** The text `skills_list` answers: one line per usable skill (name, category, description), then the broken count. */
export function listText(params: { catalog: SkillCatalog; category?: string | undefined }): string {
  const category = params.category?.trim() ?? '';
  const skills = params.catalog.skills.filter((s) => category === '' || s.category === category || (s.category ?? '').startsWith(`${category}/`));
  const broken = params.catalog.broken.length;
  const brokenLine = broken > 0 ? [`(${broken} skill${broken === 1 ? ' is' : 's are'} broken on disk and left out; \`hermes skills list\` shows why.)`] : [];
  if (skills.length === 0) {
    const none = category === '' ? 'No skills yet. Create one with skill_manage action "create" after a task worth repeating.' : `No skills in category '${category}'.`;
    return [none, ...brokenLine].join('\n');
  }
  const lines = skills.map((s) => `- ${s.meta.name}${s.category !== null ? ` [${s.category}]` : ''}: ${s.meta.description}`);
  return [`${skills.length} skill${skills.length === 1 ? '' : 's'} (load one with skill_view):`, ...lines, ...brokenLine].join('\n');
}

/** The text `skill_view` answers: the skill's body with its supporting files listed, or one of those files. */
export function viewText(params: { skill: Skill; filePath?: string | undefined }): string {
  const { skill } = params;
  const filePath = params.filePath?.trim() ?? '';
  if (filePath === '' || filePath === 'SKILL.md') {
    const files = supportingFiles({ dir: skill.dir });
    const list = files.length === 0 ? '' : `\n\n---\nFiles of this skill (read one with skill_view name="${skill.meta.name}" file_path="..."):\n${files.map((f) => `- ${f}`).join('\n')}`;
    return `# Skill: ${skill.meta.name}\n\n${skill.body.trimEnd()}${list}`;
  }
  const resolved = resolveSkillPath({ dir: skill.dir, filePath, supporting: false });
  if (!resolved.ok) throw new ToolError(resolved.reason);
  let size: number;
  try {
    const stat = statSync(resolved.file);
    if (!stat.isFile()) throw new ToolError(`'${resolved.rel}' is not a file of skill '${skill.meta.name}'. Files: ${supportingFiles({ dir: skill.dir }).join(', ') || 'none'}.`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`File '${resolved.rel}' not found in skill '${skill.meta.name}'. Files: ${supportingFiles({ dir: skill.dir }).join(', ') || 'none'}.`);
  }
  if (size > MAX_SUPPORTING_FILE_BYTES) throw new ToolError(`'${resolved.rel}' is ${size} bytes, more than skill_view returns (${MAX_SUPPORTING_FILE_BYTES}).`);
  const text = textOf({ bytes: readFileSync(resolved.file) });
  if (text === undefined) return `'${resolved.rel}' is a binary file (${size} bytes); its content is not shown.`;
  return text;
}
