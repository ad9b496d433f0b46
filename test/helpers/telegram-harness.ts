import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from './harness.js';
import { telegramAdapter, testToken } from './telegram.js';

/** The owner of the fake's private chat, and the chat. */
export const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
export const dm = { id: 1001, type: 'private' as const };

/** A gateway on the real Telegram adapter against a fake Bot API, the owner (1001) allowed, no merge window. */
export async function telegramHarness(params: { config: Record<string, unknown> }): Promise<{ h: Harness; fake: FakeTelegram }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    config: params.config,
    adapters: ({ profile, clock, logger }) => [{ adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'], unauthorized: 'ignore', mergeWindowMs: 0 }],
  });
  return { h, fake };
}

/** The last user message of the model request at `index`. */
export function lastUserText(params: { h: Harness; index: number }): string {
  return String((params.h.fake.requests[params.index]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'] ?? '');
}
