import { createHash } from 'node:crypto';
import type { Api } from 'grammy';
import type { AdapterStorage } from '../../src/core/adapter.js';
import type { SkillCommand } from '../../src/core/platform.js';
import { isCommandWord } from '../../src/core/commands.js';
import { commandTable } from '../../src/core/command-table.js';
import { grammySignal } from './signal.js';

/** One entry of the bot's command menu (setMyCommands). */
export interface MenuCommand {
  readonly command: string;
  readonly description: string;
}

/** The bot's command menu: the gateway's own commands (src/core/command-table.ts). */
export const menuCommands: readonly MenuCommand[] = commandTable.map((command) => ({ command: command.name, description: command.menu }));

const hashKey = 'commands-hash';

/** Most commands a bot's menu may hold (Telegram's limit). */
const maxMenuCommands = 100;

/** Longest menu description Telegram takes. */
const maxDescriptionChars = 256;

/**
 * The profile's skills usable on Telegram as menu entries: `-` becomes `_` (Telegram command names hold only a-z,
 * 0-9 and _, at most 32), names the built-in commands use are left out (they win), descriptions cut to 256 characters.
 * The gateway reads them from disk (skills that apply to Telegram) at each adapter start.
 */
export function skillMenuCommands(params: { skills: readonly SkillCommand[] }): MenuCommand[] {
  const taken = new Set(menuCommands.map((c) => c.command));
  const out: MenuCommand[] = [];
  for (const skill of params.skills) {
    const command = skill.name.toLowerCase().replace(/-/g, '_');
    if (!/^[a-z0-9_]{1,32}$/.test(command) || taken.has(command) || isCommandWord({ name: command })) continue;
    taken.add(command);
    const text = skill.description;
    out.push({ command, description: text.length > maxDescriptionChars ? `${text.slice(0, maxDescriptionChars - 1)}…` : text });
  }
  return out;
}

/**
 * Sets the command menu (the gateway's commands, then `extra` ones such as skills, at most 100) only when it differs
 * from what was last set (its hash is stored), never on every start.
 */
export async function syncCommandMenu(params: { api: Api; storage: AdapterStorage; botId: number; signal: AbortSignal; extra?: readonly MenuCommand[] }): Promise<boolean> {
  const commands = [...menuCommands, ...(params.extra ?? [])].slice(0, maxMenuCommands);
  // The bot is part of the hash: switching the profile to another bot sets that bot's menu too.
  const hash = createHash('sha256').update(JSON.stringify({ bot: params.botId, commands })).digest('hex');
  if (params.storage.get({ name: hashKey }) === hash) return false;
  await params.api.setMyCommands(commands, {}, grammySignal(params.signal));
  params.storage.set({ name: hashKey, value: hash });
  return true;
}
