import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slashCommands } from '../../../adapters/discord/slash-commands.js';
import { menuCommands } from '../../../adapters/telegram/commands-menu.js';
import { gatewayCommandNames, parseCommand } from '../../../src/core/commands.js';

test("the Telegram and Discord command menus list every command the gateway answers (incl. /memory), and only those", () => {
  const menus: Record<string, readonly string[]> = {
    telegram: menuCommands.map((c) => c.command),
    discord: slashCommands.map((c) => c.name),
  };
  for (const [platform, names] of Object.entries(menus)) {
    assert.deepEqual([...names].sort(), [...gatewayCommandNames].sort(), platform);
    for (const name of names) assert.deepEqual(parseCommand({ text: `/${name}` }), { kind: 'command', name, args: '' }, `${platform} /${name}`);
  }
  // Every name of the command type is listed (a new command must be added to the menus too).
  for (const name of ['new', 'stop', 'status', 'memory', 'compress', 'skills', 'cron', 'sethome', 'approve', 'deny', 'model', 'usage', 'title', 'sessions', 'resume', 'verbose', 'voice', 'rollback', 'retry', 'undo', 'queue', 'steer', 'help']) assert.ok(gatewayCommandNames.includes(name as never), name);
});
