import { VFile } from 'vfile';
import { matter } from 'vfile-matter';
import type { SkillMeta } from './types.js';
import { errorMessage } from '../util/error-text.js';

/** A SKILL.md split into its front matter and body, or why it could not be. */
export type ParsedSkillFile = { readonly ok: true; readonly meta: SkillMeta; readonly body: string } | { readonly ok: false; readonly reason: string };

/** Longest `description` accepted (Hermes Agent's limit). */
export const MAX_DESCRIPTION_CHARS = 1024;

/** A list field: a YAML list of strings, or one comma-separated string. */
function stringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map((v) => String(v).trim()).filter((s) => s !== '');
  return undefined;
}

/** Hermes Agent's place for tags (`metadata: {hermes: {tags: [...]}}`), read when there is no top-level `tags`. */
function hermesTags(params: { fields: Record<string, unknown> }): unknown {
  const metadata = params.fields['metadata'];
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const hermes = (metadata as Record<string, unknown>)['hermes'];
  if (typeof hermes !== 'object' || hermes === null) return undefined;
  return (hermes as Record<string, unknown>)['tags'];
}

/**
 * Parses a SKILL.md: YAML front matter between `---` lines (read with vfile-matter, which uses the `yaml` package),
 * then the Markdown body. `name` and `description` are required strings; `version`, `tags` (or Hermes Agent's
 * `metadata.hermes.tags`), `platforms` and `source_session` are optional; other keys (author, license,
 * prerequisites, ...) are kept in the file and ignored. Never throws.
 */
export function parseSkillFile(params: { text: string }): ParsedSkillFile {
  const text = params.text.replace(/^\uFEFF/, '');
  if (!/^---\r?\n/.test(text)) return { ok: false, reason: 'SKILL.md does not start with YAML front matter (a line "---")' };
  const file = new VFile(text);
  try {
    // failsafe: every scalar stays a string (`version: 1.0` is "1.0", not the number 1).
    matter(file, { strip: true, yaml: { schema: 'failsafe' } });
  } catch (error) {
    const first = errorMessage(error).split('\n')[0] ?? '';
    return { ok: false, reason: `front matter is not valid YAML: ${first}` };
  }
  const data: unknown = file.data.matter;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, reason: 'front matter is not a YAML mapping (key: value lines)' };
  if (String(file.value) === text) return { ok: false, reason: 'front matter is not closed (no second "---" line)' };
  const fields = data as Record<string, unknown>;
  const name = fields['name'];
  const description = fields['description'];
  if (typeof name !== 'string' || name.trim() === '') return { ok: false, reason: 'front matter has no name' };
  if (typeof description !== 'string' || description.trim() === '') return { ok: false, reason: 'front matter has no description' };
  if (description.length > MAX_DESCRIPTION_CHARS) return { ok: false, reason: `description is longer than ${MAX_DESCRIPTION_CHARS} characters` };
  // Hermes's nested tags are only informative: an odd shape there leaves the tags empty, it does not break the skill.
  const tags = fields['tags'] !== undefined ? stringList(fields['tags']) : (stringList(hermesTags({ fields })) ?? []);
  const platforms = stringList(fields['platforms']);
  if (tags === undefined) return { ok: false, reason: 'tags is not a list of words' };
  if (platforms === undefined) return { ok: false, reason: 'platforms is not a list of names' };
  const version = fields['version'];
  const source = fields['source_session'];
  const meta: SkillMeta = {
    name: name.trim(),
    description: description.trim().replace(/\s+/g, ' '),
    ...(typeof version === 'string' || typeof version === 'number' ? { version: String(version) } : {}),
    tags,
    platforms: platforms.map((p) => p.toLowerCase()),
    ...(typeof source === 'string' && source !== '' ? { sourceSession: source } : {}),
  };
  return { ok: true, meta, body: String(file.value).replace(/^\r?\n+/, '') };
}
