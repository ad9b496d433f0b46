import { createHash } from 'node:crypto';
import type { Api } from 'grammy';
import type { AdapterStorage } from '../../src/gateway/contracts.js';
import { grammySignal } from './signal.js';

/** The bot's command menu: the gateway's own commands. */
export const menuCommands: readonly { command: string; description: string }[] = [
  { command: 'new', description: 'Start a fresh conversation' },
  { command: 'stop', description: 'Stop the answer being written' },
  { command: 'status', description: 'What the gateway is doing for this chat' },
  { command: 'memory', description: 'What the agent remembers about you' },
  { command: 'compress', description: 'Compress this conversation now (summary, new session)' },
  { command: 'skills', description: 'List your skills (each runs as its own /command)' },
  { command: 'help', description: 'List the commands' },
];

const hashKey = 'commands-hash';

/** Sets the command menu only when it differs from what was last set (its hash is stored), never on every start. */
export async function syncCommandMenu(params: { api: Api; storage: AdapterStorage; botId: number; signal: AbortSignal }): Promise<boolean> {
  // The bot is part of the hash: switching the profile to another bot sets that bot's menu too.
  const hash = createHash('sha256').update(JSON.stringify({ bot: params.botId, commands: menuCommands })).digest('hex');
  if (params.storage.get({ name: hashKey }) === hash) return false;
  await params.api.setMyCommands([...menuCommands], {}, grammySignal(params.signal));
  params.storage.set({ name: hashKey, value: hash });
  return true;
}
