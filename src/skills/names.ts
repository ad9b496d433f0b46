/**
 * Skill and category names (the one rule skill_manage and `hermes skills install` both apply): lowercase letters and
 * digits in words joined by single `-` (agentskills.io's rule), so `my_skill`, `a.b`, `a--b` and `a-` are refused.
 */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Longest skill or category name (agentskills.io's limit). */
export const MAX_NAME_CHARS = 64;

/** Most levels of a category ("devops", or "mlops/training" as Hermes Agent nests them). */
export const MAX_CATEGORY_LEVELS = 2;

/** Why `name` is not a valid skill name (or category level, with `kind`), or undefined when it is. */
export function nameProblem(params: { name: string; kind?: 'skill' | 'category' }): string | undefined {
  const kind = params.kind ?? 'skill';
  const label = kind === 'skill' ? 'Skill name' : 'Category';
  if (params.name === '') return `${label} is required.`;
  if (params.name.length > MAX_NAME_CHARS) return `${label} exceeds ${MAX_NAME_CHARS} characters.`;
  if (!SKILL_NAME_PATTERN.test(params.name)) {
    return `Invalid ${kind === 'skill' ? 'skill name' : 'category'} '${params.name}'. Use lowercase letters, numbers and single hyphens between them; it must start with a letter or digit.`;
  }
  return undefined;
}

/** Why `category` ("devops", or "mlops/training") is not a valid category path, or undefined when it is. */
export function categoryPathProblem(params: { category: string }): string | undefined {
  const parts = params.category.split('/');
  if (parts.length > MAX_CATEGORY_LEVELS) return `Category '${params.category}' has more than ${MAX_CATEGORY_LEVELS} levels.`;
  if (parts.length === 1) return nameProblem({ name: params.category, kind: 'category' });
  if (parts.some((part) => nameProblem({ name: part, kind: 'category' }) !== undefined)) {
    return `Invalid category '${params.category}'. Each of its ${MAX_CATEGORY_LEVELS} levels uses lowercase letters, numbers and single hyphens between them.`;
  }
  return undefined;
}

/** Why a new skill may not be called `name` (the rule above, or a built-in command's word in `reserved`), or undefined. */
export function newSkillNameProblem(params: { name: string; reserved: readonly string[] }): string | undefined {
  const bad = nameProblem({ name: params.name });
  if (bad !== undefined) return bad;
  if (params.reserved.includes(params.name)) return `Skill name '${params.name}' is taken by the built-in command /${params.name}; choose another name.`;
  return undefined;
}
