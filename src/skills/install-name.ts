/** Longest skill name (agentskills.io's limit). */
export const MAX_SKILL_NAME_CHARS = 64;

/** Lowercase letters and digits, in words joined by single `-`. */
const namePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why `name` cannot name a skill (its folder and its slash command), or undefined when it can. */
export function skillNameProblem(params: { name: string; isReserved: (name: string) => boolean }): string | undefined {
  const { name } = params;
  if (name.length > MAX_SKILL_NAME_CHARS) return `the name "${name}" is longer than ${MAX_SKILL_NAME_CHARS} characters`;
  if (!namePattern.test(name)) return `the name "${name}" may hold only lowercase letters, digits and single "-" between them`;
  if (params.isReserved(name)) return `the name "${name}" is a built-in command (/${name}); rename the skill`;
  return undefined;
}

/** Why `category` cannot be a category folder ("devops", or "devops/k8s"), or undefined when it can. */
export function categoryProblem(params: { category: string }): string | undefined {
  const parts = params.category.split('/');
  if (parts.length > 2) return `the category "${params.category}" has more than two levels`;
  if (parts.some((p) => !namePattern.test(p))) return `the category "${params.category}" may hold only lowercase letters, digits and "-" (and one "/")`;
  return undefined;
}
