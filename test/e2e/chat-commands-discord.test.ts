import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { slashCommands } from '../../adapters/discord/slash-commands.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { startHarness } from '../helpers/harness.js';
import { discordAdapter, discordToken } from '../helpers/discord.js';
import { capturingLogger, until } from '../helpers/review.js';
import { commandTable } from '../../src/core/command-table.js';

const owner = { id: '200000000000000001', username: 'owner' };

test('discord: /model and /title are slash commands with a text option; their values switch the model and set the title', { timeout: 20_000 }, async () => {
  const fake = new FakeDiscord({ token: discordToken, guilds: [] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  const h = await startHarness({
    config: { stream: { edit_interval: '250ms' } },
    adapters: ({ profile, clock, logger }): { adapter: DiscordAdapter; allow: string[] }[] => [
      { adapter: discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id], merge_window: '0s' } }), allow: [owner.id] },
    ],
  });
  try {
    h.fake.models = ['fake-model', 'other-model'];
    await fake.waitFor({ predicate: () => fake.commands.length === slashCommands.length, what: 'the slash commands' });
    const model = fake.commands.find((command) => command['name'] === 'model');
    assert.deepEqual(model?.['options'], [{ type: 3, name: 'name', description: 'the model to switch to (empty: list them)', required: false }]);
    fake.slashCommand({ channelId: dm, user: owner, name: 'model', values: { name: 'other-model' } });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).find((m) => m.content.includes('now uses other-model')), what: 'the /model reply' });
    fake.slashCommand({ channelId: dm, user: owner, name: 'title', values: { text: 'Release notes' } });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId: dm }).find((m) => m.content === 'Title set: Release notes'), what: 'the /title reply' });
    await h.runner.waitIdle();
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 1 })[0];
      assert.equal(session?.title, 'Release notes');
      assert.equal(store.sessionModel({ sessionId: session?.id ?? '' }), 'other-model');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('discord: the "slash commands registered" log line names the commands registered (the command table)', { timeout: 20_000 }, async () => {
  const fake = new FakeDiscord({ token: discordToken, guilds: [] });
  await fake.start();
  const { logger, lines } = capturingLogger();
  const h = await startHarness({
    logger,
    adapters: ({ profile, clock, logger: l }): { adapter: DiscordAdapter; allow: string[] }[] => [
      { adapter: discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger: l, overrides: { allowed_users: [owner.id] } }), allow: [owner.id] },
    ],
  });
  try {
    await until({ predicate: () => lines.some((l) => l['msg'] === 'Discord slash commands registered'), what: 'the registration log line' });
    const line = lines.find((l) => l['msg'] === 'Discord slash commands registered');
    assert.deepEqual(line?.['commands'], commandTable.map((c) => c.name));
    assert.deepEqual(line?.['commands'], fake.commands.map((c) => c['name']));
  } finally {
    await h.stop();
    await fake.close();
  }
});
