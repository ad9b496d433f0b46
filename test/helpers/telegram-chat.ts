import type { TelegramAdapter } from '../../adapters/telegram/adapter.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from './harness.js';
import type { ToolDefinition } from '../../src/tools/tool.js';
import { telegramAdapter, testToken } from './telegram.js';

/** The owner, as the fake Telegram sends them. */
export const telegramOwner = { id: 1001, first_name: 'Owner', username: 'owner' };
/** The owner's private chat with the bot. */
export const telegramDm = { id: 1001, type: 'private' as const };

/** A gateway on the fake Telegram (the owner allowed, no merge wait) and a `say` that returns the bot's next finished message. */
export interface TelegramChat {
  readonly fake: FakeTelegram;
  readonly h: Harness;
  /** Sends `text` as the owner; resolves with the bot's next message in the chat once it is finished (no cursor) and the gateway is idle. */
  readonly say: (text: string) => Promise<string>;
  readonly stop: () => Promise<void>;
}

/** Starts the fake Telegram and a gateway on it; `config` and `extraTools` as startHarness takes them. */
export async function startTelegramChat(params: { config?: Record<string, unknown>; extraTools?: readonly ToolDefinition[] } = {}): Promise<TelegramChat> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    config: { stream: { edit_interval: '250ms' }, ...params.config },
    ...(params.extraTools ? { extraTools: params.extraTools } : {}),
    adapters: ({ profile, clock, logger }): { adapter: TelegramAdapter; allow: string[] }[] => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'], merge_window: '0s' } }), allow: ['1001'] },
    ],
  });
  const say = async (text: string): Promise<string> => {
    const before = fake.chatMessages(telegramDm.id).length;
    fake.pushMessage({ chat: telegramDm, from: telegramOwner, text });
    await fake.waitFor({ predicate: (f) => f.chatMessages(telegramDm.id).length > before && !(f.chatMessages(telegramDm.id).at(-1)?.shown ?? '').endsWith('▉'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    return fake.chatMessages(telegramDm.id).at(-1)?.shown ?? '';
  };
  return {
    fake,
    h,
    say,
    stop: async () => {
      await h.stop();
      await fake.close();
    },
  };
}
