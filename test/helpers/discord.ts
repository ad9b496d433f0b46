import type { Logger } from 'pino';
import { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { discordSchema } from '../../adapters/discord/config-schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { ContractPlatform } from '../contract/platform.js';
import { FakeDiscord } from '../fakes/discord/index.js';

/** The bot token the fake accepts. */
export const discordToken = 'MTAw.fake-discord-token.for-tests';

/** A guild with one text channel, for tests. */
export const testGuild = { id: '300000000000000001', name: 'Test guild', channels: [{ id: '300000000000000010', name: 'general', type: 0 }] };

/** Builds a Discord adapter talking to the fake. */
export function discordAdapter(params: { fake: FakeDiscord; cacheDir: string; clock: Clock; logger: Logger; overrides?: Record<string, unknown>; refusedRetryMs?: number }): DiscordAdapter {
  return new DiscordAdapter({
    ...(params.refusedRetryMs !== undefined ? { refusedRetryMs: params.refusedRetryMs } : {}),
    config: discordSchema.parse({ enabled: true, token: discordToken, api_url: params.fake.apiBase, ...params.overrides }),
    cacheDir: params.cacheDir,
    clock: params.clock,
    logger: params.logger,
  });
}

/** Discord as a contract platform: the real discord.js client against FakeDiscord. */
export async function discordPlatform(): Promise<ContractPlatform> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const ownerId = '200000000000000001';
  const strangerId = '200000000000000002';
  const owner = { id: ownerId, chatId: fake.openDm({ userId: ownerId, username: 'owner' }) };
  const stranger = { id: strangerId, chatId: fake.openDm({ userId: strangerId, username: 'stranger' }) };
  let last: unknown;
  let adapter: DiscordAdapter | undefined;
  return {
    owner,
    stranger,
    entry: ({ profile, clock, logger }) => {
      adapter ??= discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [ownerId], unauthorized: 'ignore' } });
      return { adapter, allow: [ownerId], unauthorized: 'ignore' };
    },
    userSays: async ({ user, text, file }) => {
      // The adapter must be connected before Discord delivers anything (the Gateway does not queue for it).
      await fake.waitFor({ predicate: () => fake.sessions > 0, what: 'a gateway session' });
      last = fake.messageCreate({
        channelId: user.chatId,
        author: { id: user.id, username: user.id === ownerId ? 'owner' : 'stranger' },
        content: text,
        ...(file ? { attachments: [{ name: file.fileName, bytes: file.bytes }] } : {}),
      });
    },
    redeliverLast: async () => {
      fake.dispatch({ event: 'MESSAGE_CREATE', data: last });
    },
    botMessages: ({ chatId }) =>
      fake
        .channelMessages({ channelId: chatId })
        .filter((m) => !m.deleted)
        .map((m) => {
          const file = m.attachments[0];
          return file ? { text: m.content, file: { name: file.name, bytes: file.bytes } } : { text: m.content };
        }),
    buttonsOf: ({ messageId }) => fake.buttons({ messageId }).flat().map((b) => b.customId),
    press: async ({ user, messageId, choiceId }) => {
      fake.press({ messageId, user: { id: user.id, username: user.id === ownerId ? 'owner' : 'stranger' }, customId: choiceId });
    },
    visibleLength: ({ text }) => text.length,
    close: async () => fake.close(),
  };
}
