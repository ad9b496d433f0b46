// `npx tsx bench/first-sign.ts`: the first sign of life on Telegram for a lone short message, with merge_window 1 s.
// Through grammy and FakeTelegram: from the update being pushed to the fake (the bot's long poll returns it at once) to
// the fake's sendChatAction, and to the fake model's request. Goals: ≤ 100 ms and ≤ 50 ms (both were ~1,010 ms).
import { isMain } from '../src/util/is-main.js';
import { FakeTelegram } from '../test/fakes/telegram/index.js';
import { startHarness } from '../test/helpers/harness.js';
import { telegramAdapter, testToken } from '../test/helpers/telegram.js';
import { percentile } from './stats.js';

/** Milliseconds from each message's delivery to the typing action and to the model request. */
export interface FirstSignFigures {
  readonly typingMs: readonly number[];
  readonly modelMs: readonly number[];
  readonly mergeWindowMs: number;
}

/** Sends `runs` lone short messages (each from its own chat, one at a time) and times the first signs of each. */
export async function runFirstSign(params: { runs: number }): Promise<FirstSignFigures> {
  const mergeWindowMs = 1000;
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  // One warm-up message first (JIT, the first model connection), not counted.
  const ids = Array.from({ length: params.runs + 1 }, (_, i) => 7000 + i);
  const h = await startHarness({
    config: { logging: { level: 'warn' } },
    adapters: ({ profile, clock, logger }) => [
      {
        adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ids.map(String), merge_window: '1s' } }),
        allow: ids.map(String),
        mergeWindowMs,
      },
    ],
  });
  const typingMs: number[] = [];
  const modelMs: number[] = [];
  try {
    h.fake.setResponder(() => ({ text: 'hello there' }));
    for (const id of ids) {
      const requestsBefore = h.fake.requests.length;
      const pushedAt = Date.now();
      fake.pushMessage({ chat: { id, type: 'private' }, from: { id, first_name: `u${id}` }, text: 'hi' });
      await fake.waitFor({ predicate: (f) => f.chatMessages(id)[0]?.shown === 'hello there', timeoutMs: 10_000 });
      await h.runner.waitIdle();
      const typing = fake.calls.find((c) => c.method === 'sendChatAction' && String(c.params['chat_id']) === String(id));
      const request = h.fake.requests[requestsBefore];
      if (id === ids[0]) continue;
      if (typing) typingMs.push(typing.at - pushedAt);
      if (request) modelMs.push(request.time - pushedAt);
    }
  } finally {
    await h.stop();
    await fake.close();
  }
  return { typingMs, modelMs, mergeWindowMs };
}

/** The figures as report lines (medians and maxima). */
export function firstSignLines(params: { figures: FirstSignFigures }): string[] {
  const { typingMs, modelMs, mergeWindowMs } = params.figures;
  const show = (label: string, values: readonly number[], goal: number): string => {
    const sorted = [...values].sort((a, b) => a - b);
    return `  inbound → ${label}: p50 ${percentile({ sorted, p: 50 }).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms over ${sorted.length} (goal ≤ ${goal} ms)`;
  };
  return [`first sign of life, Telegram, a lone short message, merge_window ${mergeWindowMs} ms:`, show('typing', typingMs, 100), show('model request', modelMs, 50)];
}

if (isMain({ moduleUrl: import.meta.url })) {
  const figures = await runFirstSign({ runs: Number.parseInt(process.env['BENCH_FIRST_SIGN_RUNS'] ?? '15', 10) });
  for (const line of firstSignLines({ figures })) console.log(line);
}
