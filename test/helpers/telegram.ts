import type { Update } from 'grammy/types';
import { telegramSchema } from '../../adapters/telegram/config-schema.js';
import type { AppConfig } from '../../src/app/config-schema.js';
import { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import type { MenuCommand } from '../../adapters/telegram/commands-menu.js';
import type { Logger } from 'pino';
import type { Clock } from '../../src/core/clock.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import type { ContractPlatform } from '../contract/platform.js';

/** A test bot token (the fake accepts only this one). */
export const testToken = '123456:TEST-token-for-the-fake';

/** platforms.telegram for tests, pointed at a fake; overrides in config.yaml shape. */
export function telegramConfig(params: { apiRoot: string; overrides?: Record<string, unknown> }): AppConfig['platforms']['telegram'] {
  return telegramSchema.parse({ enabled: true, token: testToken, api_root: params.apiRoot, merge_window: '300ms', ...params.overrides });
}

/** Builds a Telegram adapter talking to the fake. */
export function telegramAdapter(params: {
  fake: FakeTelegram;
  cacheDir: string;
  clock: Clock;
  logger: Logger;
  overrides?: Record<string, unknown>;
  /** More menu entries (the profile's skills, as the factory gives them). */
  menuExtras?: () => readonly MenuCommand[];
}): TelegramAdapter {
  return new TelegramAdapter({
    config: telegramConfig({ apiRoot: params.fake.apiRoot, ...(params.overrides ? { overrides: params.overrides } : {}) }),
    cacheDir: params.cacheDir,
    clock: params.clock,
    logger: params.logger,
    ...(params.menuExtras ? { menuExtras: params.menuExtras } : {}),
  });
}

/** Telegram as a contract platform: the real grammy client against FakeTelegram. */
export async function telegramPlatform(): Promise<ContractPlatform> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const owner = { id: '1001', chatId: '1001' };
  const stranger = { id: '2002', chatId: '2002' };
  let last: Update | undefined;
  let adapter: TelegramAdapter | undefined;
  return {
    owner,
    stranger,
    entry: ({ profile, clock, logger }) => {
      adapter ??= telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id], unauthorized: 'ignore' } });
      return { adapter, allow: [owner.id], unauthorized: 'ignore' };
    },
    userSays: async ({ user, text, file }) => {
      const chat = { id: Number(user.chatId), type: 'private' as const };
      const from = { id: Number(user.id), first_name: `User ${user.id}` };
      if (file) {
        const handle = fake.addFile({ bytes: file.bytes, fileName: file.fileName });
        last = fake.pushMessage({ chat, from, caption: text, document: handle });
      } else {
        last = fake.pushMessage({ chat, from, text });
      }
    },
    redeliverLast: async () => {
      if (!last) throw new Error('nothing to redeliver');
      const { update_id: _old, ...again } = last;
      fake.pushRaw(again);
    },
    botMessages: ({ chatId }) =>
      fake
        .chatMessages(Number(chatId))
        .filter((m) => !m.deleted)
        .map((m) => (m.file ? { text: m.shown, file: { name: m.file.file_name ?? '', bytes: m.file.bytes } } : { text: m.shown })),
    buttonsOf: ({ chatId, messageId }) => fake.buttons({ chatId: Number(chatId), messageId: Number(messageId) }).flat().map((b) => b.data),
    press: async ({ user, chatId, messageId, choiceId }) => {
      fake.press({ chatId: Number(chatId), messageId: Number(messageId), from: { id: Number(user.id), first_name: `User ${user.id}` }, data: choiceId });
    },
    visibleLength: ({ text }) => text.length,
    close: async () => fake.close(),
  };
}
