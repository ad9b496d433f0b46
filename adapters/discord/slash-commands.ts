import { createHash } from 'node:crypto';
import { ApplicationCommandOptionType, ApplicationCommandType, type ClientApplication } from 'discord.js';
import { commandTable, type CommandSpec } from '../../src/core/command-table.js';
import type { AdapterStorage } from '../../src/core/adapter.js';

/** One slash command's definition: the command's text after it, if it takes any, is one optional string option. */
export interface SlashCommand {
  readonly name: string;
  readonly description: string;
  readonly options?: readonly { readonly type: ApplicationCommandOptionType.String; readonly name: string; readonly description: string; readonly required: false }[];
}

/** The gateway's own commands (src/core/command-table.ts), as Discord slash commands. */
export const slashCommands: readonly SlashCommand[] = commandTable.map((command: CommandSpec) => ({
  name: command.name,
  description: command.menu,
  ...(command.arg ? { options: [{ type: ApplicationCommandOptionType.String, name: command.arg.name, description: command.arg.description, required: false as const }] } : {}),
}));

/** Storage key of the hash of the last registered definitions. */
const hashKey = 'commands-hash';

/**
 * Registers the slash commands (one bulk overwrite) only when the application or the definitions changed since
 * the last registration (their hash is stored), never on every start. Resolves with the names it registered, or
 * undefined when the registered ones were already current.
 */
export async function syncSlashCommands(params: { application: ClientApplication; storage: AdapterStorage }): Promise<readonly string[] | undefined> {
  // The application is part of the hash: pointing the profile at another bot registers that bot's commands too.
  const hash = createHash('sha256').update(JSON.stringify({ application: params.application.id, commands: slashCommands })).digest('hex');
  if (params.storage.get({ name: hashKey }) === hash) return undefined;
  await params.application.commands.set(slashCommands.map((command) => ({ ...command, type: ApplicationCommandType.ChatInput })));
  params.storage.set({ name: hashKey, value: hash });
  return slashCommands.map((command) => command.name);
}
