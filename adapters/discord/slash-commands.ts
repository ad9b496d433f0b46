import { createHash } from 'node:crypto';
import { ApplicationCommandType, type ClientApplication } from 'discord.js';
import type { AdapterStorage } from '../../src/gateway/contracts.js';

/** The gateway's own commands, as Discord slash commands. */
export const slashCommands: readonly { readonly name: string; readonly description: string }[] = [
  { name: 'new', description: 'Start a fresh conversation' },
  { name: 'stop', description: 'Stop the answer being written' },
  { name: 'status', description: 'What the gateway is doing for this chat' },
  { name: 'memory', description: 'What the agent remembers about you' },
  { name: 'compress', description: 'Compress this conversation now (summary, new session)' },
  { name: 'skills', description: 'List your skills (each runs as its own /command)' },
  { name: 'cron', description: 'The scheduled jobs and their next runs' },
  { name: 'sethome', description: 'Make this chat the home channel for jobs' },
  { name: 'approve', description: 'Allow the command waiting for approval (owner)' },
  { name: 'deny', description: 'Refuse the command waiting for approval (owner)' },
  { name: 'help', description: 'List the commands' },
];

/** Storage key of the hash of the last registered definitions. */
const hashKey = 'commands-hash';

/**
 * Registers the slash commands (one bulk overwrite) only when the application or the definitions changed since
 * the last registration (their hash is stored), never on every start. Resolves true when it registered.
 */
export async function syncSlashCommands(params: { application: ClientApplication; storage: AdapterStorage }): Promise<boolean> {
  // The application is part of the hash: pointing the profile at another bot registers that bot's commands too.
  const hash = createHash('sha256').update(JSON.stringify({ application: params.application.id, commands: slashCommands })).digest('hex');
  if (params.storage.get({ name: hashKey }) === hash) return false;
  await params.application.commands.set(slashCommands.map((command) => ({ ...command, type: ApplicationCommandType.ChatInput })));
  params.storage.set({ name: hashKey, value: hash });
  return true;
}
