/** Skill and category names: lowercase letters, digits and `-`, starting with a letter or digit. */
export const SKILL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/** Longest skill or category name. */
export const MAX_NAME_CHARS = 64;

/** Why `name` is not a valid skill name (or category, with `kind`), or undefined when it is. */
export function nameProblem(params: { name: string; kind?: 'skill' | 'category' }): string | undefined {
  const kind = params.kind ?? 'skill';
  const label = kind === 'skill' ? 'Skill name' : 'Category';
  if (params.name === '') return `${label} is required.`;
  if (params.name.length > MAX_NAME_CHARS) return `${label} exceeds ${MAX_NAME_CHARS} characters.`;
  if (!SKILL_NAME_PATTERN.test(params.name)) {
    return `Invalid ${kind === 'skill' ? 'skill name' : 'category'} '${params.name}'. Use lowercase letters, numbers and hyphens; it must start with a letter or digit.`;
  }
  return undefined;
}
