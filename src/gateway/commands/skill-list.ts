import { skillApplies } from '../../skills/load.js';
import type { Skill, SkillCatalog } from '../../skills/types.js';
import { isCommandWord, skillCommandNote } from '../../core/commands.js';
import { skillForCommand } from './skill-command.js';

/** Most characters of the /skills reply (a few SMS segments); the rest is counted in one line. */
export const SKILLS_LIST_MAX_CHARS = 1200;

/** Longest description shown per skill in /skills. */
const descriptionMaxChars = 90;

/** How the command is typed here: on Telegram `-` becomes `_` (its command names allow only a-z, 0-9, _) when that still finds the skill. */
function commandName(params: { skill: Skill; catalog: SkillCatalog; platform: string }): string {
  const { skill, catalog } = params;
  const name = skill.meta.name;
  if (!params.platform.startsWith('telegram') || !name.includes('-')) return name;
  const underscored = name.replace(/-/g, '_');
  return skillForCommand({ catalog, name: underscored }) === skill ? underscored : name;
}

function shorten(params: { text: string; max: number }): string {
  return params.text.length > params.max ? `${params.text.slice(0, params.max - 1).trimEnd()}…` : params.text;
}

/**
 * The /skills reply: the skills usable on this platform as `/name — description`, grouped by category, capped at
 * SKILLS_LIST_MAX_CHARS (how many more is said), a line on how to run one, and broken skills counted in one line.
 */
export function skillsListText(params: { catalog: SkillCatalog; platform: string }): string {
  const { catalog, platform } = params;
  // A skill named like a built-in command or alias (/reset, /start) can never run as one: it is left out here (the built-in wins).
  const usable = catalog.skills.filter((skill) => skillApplies({ skill, platform }) && !isCommandWord({ name: skill.meta.name }));
  const elsewhere = catalog.skills.filter((skill) => !skillApplies({ skill, platform })).length;
  const footer: string[] = [];
  if (elsewhere > 0) footer.push(`${elsewhere} more skill${elsewhere === 1 ? ' is' : 's are'} for other platforms.`);
  if (catalog.broken.length > 0) footer.push(`${catalog.broken.length} skill${catalog.broken.length === 1 ? ' is' : 's are'} broken and left out (details: hermes skills list).`);
  if (usable.length === 0) {
    return [
      'No skills yet: the agent saves one when it works out a procedure worth keeping, or ask it to ("save this as a skill"). ' +
        'You can also put a SKILL.md into the profile\'s skills/<name>/ folder or use hermes skills install PATH.',
      ...footer,
    ].join('\n');
  }
  const first = usable[0];
  const example = first === undefined ? '<name>' : commandName({ skill: first, catalog, platform });
  const tail = [...footer, `Run one: /${example} [what you want]. ${skillCommandNote}`];
  const lines = [`Skills (${usable.length}):`];
  let used = lines[0]?.length ?? 0;
  const budget = SKILLS_LIST_MAX_CHARS - tail.join('\n').length - 40;
  let category: string | null | undefined;
  let shown = 0;
  for (const skill of usable) {
    const entry: string[] = [];
    // Uncategorised skills sort first and need no heading; each category gets one.
    if (skill.category !== category) {
      category = skill.category;
      if (category !== null) entry.push(`[${category}]`);
    }
    entry.push(`/${commandName({ skill, catalog, platform })} — ${shorten({ text: skill.meta.description, max: descriptionMaxChars })}`);
    const size = entry.join('\n').length + 1;
    if (used + size > budget) break;
    lines.push(...entry);
    used += size;
    shown += 1;
  }
  if (shown < usable.length) lines.push(`… and ${usable.length - shown} more (hermes skills list shows them all).`);
  return [...lines, '', ...tail].join('\n');
}
