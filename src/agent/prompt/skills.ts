import { loadSkills, skillApplies } from '../../skills/load.js';
import type { Skill } from '../../skills/types.js';
import type { PromptLayer, PromptLogger } from './types.js';

/** What the model is told about the index (before the list). */
const instruction = [
  '# Skills',
  'Skills are saved procedures for recurring tasks. Before replying, check the list below: if a skill matches the task, ' +
    'load it with skill_view and follow it (skills_list shows them all).',
].join('\n');

/** `text` on one line, with no tag that could close or reopen the index block (a description is the skill author's text). */
function inline(params: { text: string }): string {
  return params.text.replace(/\s+/g, ' ').replace(/<(\/?)available_skills>/gi, '($1available_skills)');
}

/** One skill's line in the index: name, category, description. */
function indexLine(params: { skill: Skill }): string {
  const { meta, category } = params.skill;
  return `- ${inline({ text: meta.name })}${category !== null ? ` [${category}]` : ''}: ${inline({ text: meta.description })}`;
}

/** The closing line when skills were left out for the size cap. */
function moreLine(params: { count: number }): string {
  return `- (${params.count} more skill${params.count === 1 ? '' : 's'} not shown: skills_list shows all)`;
}

/**
 * The index text for `skills`: the instruction and `<available_skills>` with one line per skill, at most `maxChars`
 * characters in all (skills past the cap are left out and counted on a last line). '' when there are none.
 */
export function skillsIndexText(params: { skills: readonly Skill[]; maxChars: number }): string {
  if (params.skills.length === 0) return '';
  const open = `${instruction}\n<available_skills>`;
  const close = '</available_skills>';
  const lines: string[] = [];
  let used = open.length + 1 + close.length;
  for (const [i, skill] of params.skills.entries()) {
    const line = indexLine({ skill });
    const left = params.skills.length - i - 1;
    // Room for this line, and for the "more" line if any skill after it could still be left out.
    const reserve = left > 0 ? moreLine({ count: left }).length + 1 : 0;
    if (used + line.length + 1 + reserve > params.maxChars) {
      lines.push(moreLine({ count: params.skills.length - i }));
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return [open, ...lines, close].join('\n');
}

/**
 * The skills layer: the index of the profile's skills that apply on `platform` (name, category, description; the
 * bodies load on demand with skill_view), capped at `maxChars`. Read once when the session's prompt is built, so
 * a skill saved during a session shows from the next one. Empty without skills or without the skill_view tool.
 */
export function skillsLayer(params: { dir: string; platform: string; maxChars: number; offered: boolean; logger: PromptLogger }): PromptLayer {
  if (!params.offered) return { name: 'skills', text: '' };
  const catalog = loadSkills({ dir: params.dir, logger: params.logger });
  const skills = catalog.skills.filter((skill) => skillApplies({ skill, platform: params.platform }));
  return { name: 'skills', text: skillsIndexText({ skills, maxChars: params.maxChars }) };
}
