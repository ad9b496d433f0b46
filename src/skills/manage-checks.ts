import path from 'node:path';
import { scanForThreats } from '../threats/scan.js';
import { ToolError } from '../core/errors.js';
import { parseSkillFile } from './front-matter.js';
import { MAX_SKILL_CHARS } from './load.js';
import type { SkillCatalog, Skill } from './types.js';
import { MAX_SUPPORTING_FILE_BYTES } from './files.js';

/** A skill a write is aimed at: usable, broken on disk (only edit and delete may touch it), or not there. */
export type SkillTarget =
  | { readonly kind: 'ok'; readonly skill: Skill; readonly dir: string }
  | { readonly kind: 'broken'; readonly dir: string; readonly reason: string }
  | { readonly kind: 'missing' };

/** Finds the skill called `name` (front matter name or folder name), usable or broken, under the skills/ folder `root`. */
export function locateSkill(params: { catalog: SkillCatalog; root: string; name: string }): SkillTarget {
  const { catalog, name } = params;
  const skill = catalog.skills.find((s) => s.meta.name === name) ?? catalog.skills.find((s) => path.basename(s.dir) === name);
  if (skill !== undefined) return { kind: 'ok', skill, dir: skill.dir };
  const broken = catalog.broken.find((b) => path.basename(path.dirname(b.path)) === name);
  if (broken !== undefined) return { kind: 'broken', dir: path.join(params.root, path.dirname(broken.path)), reason: broken.reason };
  return { kind: 'missing' };
}

/** Throws the refusal for a text the threat scan blocks (nothing is written). */
export function assertNoThreat(params: { text: string; what: string }): void {
  const finding = scanForThreats({ text: params.text, source: 'skill' });
  if (finding !== undefined) {
    throw new ToolError(`Security scan blocked this ${params.what}: ${finding.reason} (matched "${finding.match}"). Nothing was written.`);
  }
}

/**
 * Checks a whole SKILL.md before it is written: size, front matter (name and description; `names` lists the names
 * it may carry), a body, and the threat scan. Throws ToolError with the reason.
 */
export function assertSkillText(params: { text: string; names: readonly string[]; prefix?: string }): void {
  const prefix = params.prefix ?? '';
  if (params.text.trim() === '') throw new ToolError(`${prefix}Content cannot be empty.`);
  if (params.text.length > MAX_SKILL_CHARS) throw new ToolError(`${prefix}SKILL.md would be ${params.text.length} characters; the limit is ${MAX_SKILL_CHARS}. Move detail into references/ files (write_file).`);
  const parsed = parseSkillFile({ text: params.text });
  if (!parsed.ok) throw new ToolError(`${prefix}SKILL.md is invalid: ${parsed.reason}. It must start with YAML front matter between '---' lines holding name and description, then the instructions.`);
  if (!params.names.includes(parsed.meta.name)) {
    throw new ToolError(`${prefix}The front matter name '${parsed.meta.name}' must be the skill's name '${params.names[0] ?? ''}'.`);
  }
  if (parsed.body.trim() === '') throw new ToolError(`${prefix}SKILL.md must have content after the front matter (instructions, procedures, etc.).`);
  assertNoThreat({ text: params.text, what: 'skill' });
}

/** Checks a supporting file's text before it is written: size and threat scan. */
export function assertSupportingText(params: { text: string; rel: string }): void {
  const bytes = Buffer.byteLength(params.text, 'utf8');
  if (bytes > MAX_SUPPORTING_FILE_BYTES) throw new ToolError(`${params.rel} would be ${bytes} bytes; a supporting file may hold at most ${MAX_SUPPORTING_FILE_BYTES} bytes.`);
  assertNoThreat({ text: params.text, what: `file (${params.rel})` });
}

/**
 * The SKILL.md text with `source_session: <id>` in its front matter (replacing one already there; without an id,
 * any there is removed), the rest of the YAML kept as written.
 */
export function withSourceSession(params: { text: string; sessionId: string | undefined }): string {
  const match = /^(\uFEFF?---\r?\n)([\s\S]*?)(\r?\n---[ \t]*(?:\r?\n|$))/.exec(params.text);
  if (match === null) return params.text;
  const [whole, open = '', yaml = '', close = ''] = match;
  const lines = yaml.split(/\r?\n/).filter((l) => !/^source_session\s*:/.test(l));
  const added = params.sessionId === undefined ? [] : [`source_session: ${JSON.stringify(params.sessionId)}`];
  return `${open}${[...lines, ...added].join('\n')}${close}${params.text.slice(whole.length)}`;
}

/**
 * The SKILL.md text whose `source_session` is `sessionId` (none when undefined), rewritten only when it differs: the
 * session a skill was created in is a record the gateway keeps, not a field the model may set (on create, edit or
 * patch) to another session's id.
 */
export function recordedSession(params: { text: string; sessionId: string | undefined }): string {
  const parsed = parseSkillFile({ text: params.text });
  if (!parsed.ok || parsed.meta.sourceSession === params.sessionId) return params.text;
  return withSourceSession(params);
}
