import path from 'node:path';
import { findSkill, loadSkills, skillApplies } from '../../skills/load.js';
import type { Skill, SkillCatalog } from '../../skills/types.js';
import { parseCommand, unknownCommandReply, type ParsedCommand } from '../../core/commands.js';
import type { SkillExpander } from '../turns/user-text.js';

/** What a message's text means once skills are considered: a built-in command, a skill's turn, a refusal, or none. */
export type MessageCommand =
  | ParsedCommand
  /** `/<skill-name> [text]` naming a usable skill: a normal turn (journaled, queued, paced), its text expanded by the turn. */
  | { readonly kind: 'skill'; readonly name: string; readonly args: string }
  /** A skill that exists but cannot run here (another platform, or broken): answered on the control lane with `reply`. */
  | { readonly kind: 'skill-refused'; readonly name: string; readonly reply: string };

/** The reply to a command that is neither the gateway's own nor a runnable skill ('' for a plain message). */
export function otherCommandReply(params: { command: MessageCommand }): string {
  const { command } = params;
  if (command.kind === 'unknown') return unknownCommandReply({ name: command.name });
  return command.kind === 'skill-refused' ? command.reply : '';
}

/** The skills of a profile's skills/ folder as on disk now; no folder configured: none. */
export function skillCatalogOf(params: { dir: string | undefined }): SkillCatalog {
  return params.dir === undefined ? { skills: [], broken: [] } : loadSkills({ dir: params.dir });
}

/** The names a `/word` may mean: itself, then with `_` read as `-` (Telegram command names cannot hold `-`). */
function candidateNames(params: { name: string }): string[] {
  const dashed = params.name.replace(/_/g, '-');
  return dashed === params.name ? [params.name] : [params.name, dashed];
}

/** The skill a `/word` names (exact name, its folder's name, or case-insensitively), trying `my_skill` as `my-skill` second. */
export function skillForCommand(params: { catalog: SkillCatalog; name: string }): Skill | undefined {
  const { catalog } = params;
  for (const name of candidateNames({ name: params.name })) {
    const found = findSkill({ catalog, name }) ?? catalog.skills.find((s) => s.meta.name.toLowerCase() === name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Why a broken SKILL.md whose folder is called like the `/word` was left out, if there is one. */
function brokenReason(params: { catalog: SkillCatalog; name: string }): string | undefined {
  const names = candidateNames({ name: params.name });
  return params.catalog.broken.find((b) => names.includes(path.basename(path.dirname(b.path)).toLowerCase()))?.reason;
}

/**
 * Reads a message's command against the skills on disk now (a skill created a second ago counts). Built-in commands
 * are decided before any skill is looked at, so a skill called `status` never shadows /status.
 */
export function messageCommand(params: { text: string; platform: string; catalog: () => SkillCatalog }): MessageCommand {
  const command = parseCommand({ text: params.text });
  if (command.kind !== 'unknown') return command;
  const catalog = params.catalog();
  const skill = skillForCommand({ catalog, name: command.name });
  if (skill !== undefined) {
    if (skillApplies({ skill, platform: params.platform })) return { kind: 'skill', name: skill.meta.name, args: command.args };
    const where = skill.meta.platforms.join(', ');
    return { kind: 'skill-refused', name: skill.meta.name, reply: `The skill ${skill.meta.name} does not run here (${params.platform}): it is for ${where}.` };
  }
  const reason = brokenReason({ catalog, name: command.name });
  if (reason !== undefined) {
    return { kind: 'skill-refused', name: command.name, reply: `The skill ${command.name} cannot run: ${reason}. Fix its SKILL.md (hermes skills list shows what is wrong).` };
  }
  return command;
}

/**
 * The user text of a skill's turn: the skill's body loaded as instructions, then what the user wrote with the command.
 * A pure function of the skill and the text, so a replayed turn sends the model the same words.
 */
export function skillInvocationText(params: { skill: Skill; args: string }): string {
  const { skill } = params;
  const name = skill.meta.name;
  const lines = [
    `[The user ran the skill "${name}" as a command: follow its instructions below for this request. ` +
      `Its folder's other files (references/, templates/, scripts/) open with skill_view name="${name}" file_path="...".]`,
    '',
    skill.body.trim(),
    '',
    params.args === '' ? '[The user gave no further text: carry out the skill as written.]' : `[What the user asked for with it:]\n${params.args}`,
  ];
  return lines.join('\n');
}

/** The turn's skill expander for a profile's skills/ folder: reads the skill from disk when the turn builds its text. */
export function skillExpander(params: { dir: string }): SkillExpander {
  return ({ name, args, platform }) => {
    const skill = skillForCommand({ catalog: loadSkills({ dir: params.dir }), name });
    if (skill === undefined || !skillApplies({ skill, platform })) return undefined;
    return skillInvocationText({ skill, args });
  };
}
