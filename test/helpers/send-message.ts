import type { CapturedRequest, ScriptedReply } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from './harness.js';
import { telegramAdapter, testToken } from './telegram.js';

/** The Telegram owner (allowed) and their private chat with the bot. */
export const owner = { id: 1001, first_name: 'Olga', username: 'olga' };
export const ownerDm = { id: 1001, type: 'private' as const };

/** A gateway with the test adapter (chat `c1`, where the tool is called) and the real grammy adapter against a FakeTelegram. */
export async function start(params: { env?: Record<string, string> } = {}): Promise<{ h: Harness; tg: FakeTelegram; close: () => Promise<void> }> {
  const tg = new FakeTelegram({ token: testToken });
  await tg.start();
  const h = await startHarness({
    ...(params.env ? { env: params.env } : {}),
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake: tg, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [String(owner.id)] } }), allow: [String(owner.id)], mergeWindowMs: 0 },
    ],
  });
  await tg.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'getUpdates') });
  return {
    h,
    tg,
    close: async () => {
      await h.stop();
      await tg.close();
    },
  };
}

/** The text of the last message a request carries (a user's text, or a tool result). */
function lastMessage(req: CapturedRequest): { role: string; content: string } {
  const last = req.body.messages?.at(-1);
  return { role: String(last?.['role'] ?? ''), content: String(last?.['content'] ?? '') };
}

/** The owner writes to the bot on Telegram (the model answers "hello"), so telegram:1001 becomes a chat the profile knows. */
export async function ownerWritesOnTelegram(params: { h: Harness; tg: FakeTelegram; text: string }): Promise<void> {
  const before = params.tg.chatMessages(ownerDm.id).length;
  params.tg.pushMessage({ chat: ownerDm, from: owner, text: params.text });
  await params.tg.waitFor({ predicate: (f) => f.chatMessages(ownerDm.id).length > before });
  await params.h.runner.waitIdle();
}

/** Scripts the model: a user message in c1 gets `calls` (one round each), then "done." after the last tool result. */
export function script(params: { h: Harness; calls: readonly ScriptedReply[] }): void {
  let round = 0;
  params.h.fake.setResponder((req) => {
    const last = lastMessage(req);
    if (last.role === 'user' && !last.content.includes('please')) return { text: 'hello' };
    const reply = params.calls[round];
    round += 1;
    return reply ?? { text: 'done.' };
  });
}

/** The tool results the model got back, in order. */
export function toolResults(h: Harness): string[] {
  const last = h.fake.requests.at(-1)?.body.messages ?? [];
  return last.filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
}

/** A send_message send call of one model round. */
export const send = (args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name: 'send_message', arguments: { action: 'send', ...args } }] });

