import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../core/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { isPlainFile, resolveSkillPath } from './files.js';
import { SKILL_FILE } from './load.js';
import { assertSkillText, assertSupportingText, recordedSession, type SkillTarget } from './manage-checks.js';

/** Names a SKILL.md of this skill may carry in its front matter: its current name and its folder's name. */
function namesOf(params: { target: SkillTarget & { kind: 'ok' | 'broken' } }): string[] {
  const folder = path.basename(params.target.dir);
  return params.target.kind === 'ok' ? [params.target.skill.meta.name, folder] : [folder];
}

/** Characters of a file shown when old_string does not match (so the model can correct itself). */
const PREVIEW_CHARS = 500;

/** `edit`: replaces the whole SKILL.md (also the way to repair a skill that is broken on disk). */
export function editSkill(params: { target: SkillTarget & { kind: 'ok' | 'broken' }; name: string; content?: string | undefined }): string {
  if (params.content === undefined) throw new ToolError("content is required for 'edit': the whole new SKILL.md (front matter and body).");
  const text = params.target.kind === 'ok' ? recordedSession({ text: params.content, sessionId: params.target.skill.meta.sourceSession }) : params.content;
  assertSkillText({ text, names: namesOf({ target: params.target }) });
  writeFileAtomic({ file: path.join(params.target.dir, SKILL_FILE), text });
  return `Skill '${params.name}' updated (SKILL.md rewritten).${params.target.kind === 'broken' ? ' It was broken on disk and is usable again.' : ''}`;
}

/** `patch`: replaces the one occurrence of old_string in SKILL.md (or a supporting file) with new_string. */
export function patchSkill(params: { target: SkillTarget & { kind: 'ok' }; name: string; oldString?: string | undefined; newString?: string | undefined; filePath?: string | undefined }): string {
  const { target } = params;
  if (params.oldString === undefined || params.oldString === '') throw new ToolError("old_string is required for 'patch'.");
  if (params.newString === undefined) throw new ToolError("new_string is required for 'patch'. Use an empty string to delete the matched text.");
  const onSkillFile = params.filePath === undefined || params.filePath.trim() === '' || params.filePath.trim() === SKILL_FILE;
  let file = path.join(target.dir, SKILL_FILE);
  let rel = SKILL_FILE;
  if (!onSkillFile) {
    const resolved = resolveSkillPath({ dir: target.dir, filePath: params.filePath ?? '', supporting: true });
    if (!resolved.ok) throw new ToolError(resolved.reason);
    file = resolved.file;
    rel = resolved.rel;
  }
  if (!isPlainFile({ file })) throw new ToolError(`File not found in skill '${params.name}': ${rel}.`);
  const content = readFileSync(file, 'utf8');
  const count = content.split(params.oldString).length - 1;
  if (count === 0) {
    const preview = content.slice(0, PREVIEW_CHARS) + (content.length > PREVIEW_CHARS ? '...' : '');
    throw new ToolError(`old_string not found in ${rel}. Nothing was changed. The file starts:\n${preview}`);
  }
  if (count > 1) throw new ToolError(`old_string matched ${count} times in ${rel}. Provide more surrounding context to make the match unique. Nothing was changed.`);
  const at = content.indexOf(params.oldString);
  const patched = content.slice(0, at) + params.newString + content.slice(at + params.oldString.length);
  const next = onSkillFile ? recordedSession({ text: patched, sessionId: target.skill.meta.sourceSession }) : patched;
  if (onSkillFile) assertSkillText({ text: next, names: namesOf({ target }), prefix: 'Patch would break SKILL.md: ' });
  else assertSupportingText({ text: next, rel });
  writeFileAtomic({ file, text: next });
  return `Patched ${rel} in skill '${params.name}' (1 replacement).`;
}
