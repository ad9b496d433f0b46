import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A SKILL.md text: front matter (name, description, optional fields as YAML lines) and a body. */
export function skillText(params: { name: string; description: string; body?: string; extra?: readonly string[] }): string {
  const body = params.body ?? `# ${params.name}\n\n1. Check the current state first.\n2. Apply the change.\n3. Verify it worked.\n`;
  return ['---', `name: ${params.name}`, `description: ${JSON.stringify(params.description)}`, ...(params.extra ?? []), '---', '', body].join('\n');
}

/** Writes one skill to skills/[<category>/]<name>/SKILL.md under `dir`; returns the skill's folder. */
export function writeSkill(params: { dir: string; name: string; description: string; category?: string; body?: string; extra?: readonly string[] }): string {
  const folder = params.category === undefined ? path.join(params.dir, params.name) : path.join(params.dir, params.category, params.name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'SKILL.md'), skillText(params));
  return folder;
}

/**
 * Writes `count` realistic skills (five categories, descriptions of about 100 characters, bodies of about 1,500
 * characters) under `dir`; returns their names.
 */
export function generateSkills(params: { dir: string; count: number }): string[] {
  const categories = ['devops', 'writing', 'data', 'home', 'research'];
  const verbs = ['deploy', 'review', 'summarise', 'backup', 'migrate', 'triage', 'draft', 'audit', 'plan', 'clean'];
  const names: string[] = [];
  for (let i = 0; i < params.count; i += 1) {
    const verb = verbs[i % verbs.length] ?? 'do';
    const name = `${verb}-task-${String(i).padStart(3, '0')}`;
    const description = `How to ${verb} task ${i} for the owner: the checks, the commands that worked, and the pitfalls met before.`;
    const steps = Array.from({ length: 12 }, (_, k) => `${k + 1}. Step ${k + 1} of ${verb} task ${i}: run the check, read its output, then continue only when it passed.`);
    writeSkill({ dir: params.dir, name, description, category: categories[i % categories.length] ?? 'misc', body: `# ${name}\n\n${steps.join('\n')}\n` });
    names.push(name);
  }
  return names;
}
