import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import type { BotMessage } from '../fakes/discord/types.js';
import { clarifyResult, scriptClarify } from '../helpers/clarify.js';
import { startHarness } from '../helpers/harness.js';
import { discordAdapter, discordToken, testGuild } from '../helpers/discord.js';

const owner = { id: '200000000000000001', username: 'owner' };

test('discord DM: clarify with choices shows component buttons; the owner presses one (INTERACTION_CREATE) → answered, the model gets the choice, buttons gone; next time the owner answers "1" in a message', { timeout: 60_000 }, async () => {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  const h = await startHarness({
    // No background review: its model calls would take the scripted replies.
    config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: DiscordAdapter; allow: string[]; unauthorized: 'ignore'; mergeWindowMs: number }[] => [
      { adapter: discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id] } }), allow: [owner.id], unauthorized: 'ignore', mergeWindowMs: 0 },
    ],
  });
  const questions = (): BotMessage[] => fake.channelMessages({ channelId: dm }).filter((m) => !m.deleted && m.content.startsWith('❓ ') && !m.content.startsWith('❓ clarify'));
  const current = (q: BotMessage): BotMessage | undefined => fake.channelMessages({ channelId: dm }).find((m) => m.id === q.id);
  const shown = (text: string): boolean => fake.channelMessages({ channelId: dm }).some((m) => !m.deleted && m.content === text);
  try {
    await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'the gateway session' });
    scriptClarify(h, { question: 'Which colour for the logo?', choices: ['Red', 'Blue'], final: 'Red it is' });
    fake.messageCreate({ channelId: dm, author: owner, content: 'make a logo' });
    const q = await fake.waitFor({ predicate: () => questions()[0], timeoutMs: 15_000, what: 'the question' });
    assert.equal(q.content, '❓ Which colour for the logo?\n\nPress a button, or reply with your own answer. No answer in 5 min: the agent goes on without one.');
    assert.deepEqual(fake.buttons({ messageId: q.id }).flat().map((b) => b.label), ['Red', 'Blue']);
    const pressed = fake.press({ messageId: q.id, user: owner, label: 'Red' });
    await fake.waitFor({ predicate: () => shown('Red it is'), timeoutMs: 15_000, what: 'the answer' });
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Red');
    assert.equal(current(q)?.content, '❓ Which colour for the logo?\n\n✅ owner answered: Red');
    assert.deepEqual(fake.buttons({ messageId: q.id }), []);
    assert.ok(fake.interaction({ id: pressed.id })?.callback, 'the interaction was not answered');

    scriptClarify(h, { question: 'Which font?', choices: ['Serif', 'Sans'], final: 'serif then' });
    fake.messageCreate({ channelId: dm, author: owner, content: 'and the font?' });
    await fake.waitFor({ predicate: () => questions()[1], timeoutMs: 15_000, what: 'the second question' });
    fake.messageCreate({ channelId: dm, author: owner, content: '1' });
    await fake.waitFor({ predicate: () => shown('serif then'), timeoutMs: 15_000, what: 'the second answer' });
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Serif');
    assert.equal(h.fake.requests.length, 4, 'the answer started a turn');
  } finally {
    await h.stop();
    await fake.close();
  }
});
