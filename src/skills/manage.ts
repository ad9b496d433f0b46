import { ToolError } from '../core/errors.js';
import type { SkillManageRequest } from './types.js';
import { createSkill } from './manage-create.js';
import { editSkill, patchSkill } from './manage-change.js';
import { locateSkill } from './manage-checks.js';
import { deleteSkill, removeSkillFile, writeSkillFile } from './manage-files.js';
import type { SkillCatalog } from './types.js';

/**
 * Applies one `skill_manage` request to the skills/ folder `root` (as `catalog` read it just now); resolves to the
 * text for the model. A skill that is broken on disk may only be repaired (edit) or deleted. Throws ToolError.
 */
export function manageSkill(params: { root: string; catalog: SkillCatalog; request: SkillManageRequest; reservedNames: readonly string[]; sessionId?: string | undefined }): string {
  const { root, catalog, request } = params;
  const name = request.name.trim();
  if (request.action === 'create') {
    return createSkill({ root, catalog, name, category: request.category, content: request.content, reservedNames: params.reservedNames, sessionId: params.sessionId });
  }
  const target = locateSkill({ catalog, root, name });
  if (target.kind === 'missing') throw new ToolError(`Skill '${name}' not found. Use skills_list to see the available skills${request.action === 'write_file' ? ", or create it first with action 'create'" : ''}.`);
  if (request.action === 'edit') return editSkill({ target, name, content: request.content });
  if (request.action === 'delete') return deleteSkill({ root, dir: target.dir, name });
  if (target.kind === 'broken') {
    throw new ToolError(`Skill '${name}' is broken on disk (${target.reason}). Only 'edit' (to repair it with a whole new SKILL.md) or 'delete' are allowed.`);
  }
  switch (request.action) {
    case 'patch':
      return patchSkill({ target, name, oldString: request.oldString, newString: request.newString, filePath: request.filePath });
    case 'write_file':
      return writeSkillFile({ dir: target.dir, name, filePath: request.filePath, fileContent: request.fileContent });
    case 'remove_file':
      return removeSkillFile({ dir: target.dir, name, filePath: request.filePath });
  }
}
