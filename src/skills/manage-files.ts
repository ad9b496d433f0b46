import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../core/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { isPlainFile, resolveSkillPath } from './files.js';
import { assertSupportingText } from './manage-checks.js';
import { pruneEmptyDirs, removeSkillFolder } from './remove.js';

/** `write_file`: adds or replaces a file under the skill's references/, templates/, scripts/ or assets/. */
export function writeSkillFile(params: { dir: string; name: string; filePath?: string | undefined; fileContent?: string | undefined }): string {
  const resolved = resolveSkillPath({ dir: params.dir, filePath: params.filePath ?? '', supporting: true });
  if (!resolved.ok) throw new ToolError(resolved.reason);
  if (params.fileContent === undefined) throw new ToolError("file_content is required for 'write_file'.");
  assertSupportingText({ text: params.fileContent, rel: resolved.rel });
  if (existsSync(resolved.file) && !isPlainFile({ file: resolved.file })) throw new ToolError(`'${resolved.rel}' is a folder in skill '${params.name}', not a file; choose another file_path.`);
  mkdirSync(path.dirname(resolved.file), { recursive: true });
  writeFileAtomic({ file: resolved.file, text: params.fileContent });
  return `File '${resolved.rel}' written to skill '${params.name}'. Read it with skill_view name='${params.name}' file_path='${resolved.rel}'.`;
}

/** `remove_file`: deletes one supporting file (folders it leaves empty go too, up to the skill's folder). */
export function removeSkillFile(params: { dir: string; name: string; filePath?: string | undefined }): string {
  const resolved = resolveSkillPath({ dir: params.dir, filePath: params.filePath ?? '', supporting: true });
  if (!resolved.ok) throw new ToolError(resolved.reason);
  if (!isPlainFile({ file: resolved.file })) throw new ToolError(`File '${resolved.rel}' not found in skill '${params.name}'.`);
  unlinkSync(resolved.file);
  pruneEmptyDirs({ from: path.dirname(resolved.file), stop: params.dir });
  return `File '${resolved.rel}' removed from skill '${params.name}'.`;
}

/** `delete`: removes the skill's folder, and its category folder when that is left empty. */
export function deleteSkill(params: { root: string; dir: string; name: string }): string {
  const removed = removeSkillFolder({ skillsDir: params.root, dir: params.dir });
  if (!removed.ok) throw new ToolError(`Skill '${params.name}' not deleted: ${removed.reason}.`);
  return `Skill '${params.name}' deleted${removed.link ? ' (its folder was a symbolic link: only the link was removed)' : ''}.`;
}
