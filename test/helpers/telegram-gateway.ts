import { FakeTelegram } from '../fakes/telegram/index.js';
import type { BotMessage } from '../fakes/telegram/types.js';
import type { FakeClock } from './fake-clock.js';
import { startHarness, type Harness } from './harness.js';
import { telegramAdapter, testToken } from './telegram.js';

/** The owner of the Telegram gateway below (allowed user 1001), and their private chat with the bot. */
export const tgOwner = { id: 1001, first_name: 'Owner', username: 'owner' };
export const tgDm = { id: 1001, type: 'private' as const };

/** A harness gateway with the real grammy adapter against a FakeTelegram. */
export interface TelegramGateway {
  readonly h: Harness;
  readonly fake: FakeTelegram;
  close(): Promise<void>;
}

/**
 * A gateway on a fake clock (the fake Telegram's timestamps on it too) with the real grammy adapter against a fake
 * Telegram (owner 1001, no merge window) and the cronjob tool on; `config` in config.yaml shape (timezone UTC).
 */
export async function telegramGateway(params: { clock: FakeClock; config?: Record<string, unknown> }): Promise<TelegramGateway> {
  const { clock } = params;
  const fake = new FakeTelegram({ token: testToken, clock });
  await fake.start();
  let poke = (): void => undefined;
  const h = await startHarness({
    clock,
    config: { timezone: 'UTC', ...params.config },
    cron: { poke: () => poke() },
    adapters: ({ profile, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [String(tgOwner.id)] } }), allow: [String(tgOwner.id)], mergeWindowMs: 0 },
    ],
  });
  poke = () => h.runner.scheduler.poke();
  return {
    h,
    fake,
    close: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

/** The bot's messages in the owner's chat (deleted ones left out). */
export function ownerChat(fake: FakeTelegram): BotMessage[] {
  return fake.chatMessages(tgDm.id).filter((m) => !m.deleted);
}
