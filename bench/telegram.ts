// `npm run bench:telegram`: a long streamed answer to 50 Telegram chats at once, through grammy and FakeTelegram.
// Prints edits per chat per second (must stay ≤ 1), the final-text lag after the last token, and RSS.
import { FakeTelegram } from '../test/fakes/telegram/index.js';
import { startHarness } from '../test/helpers/harness.js';
import { telegramAdapter, testToken } from '../test/helpers/telegram.js';
import { percentile } from './stats.js';

const seconds = Number.parseInt(process.env['BENCH_SECONDS'] ?? '60', 10);
const chats = 50;
const chunkDelayMs = 250;
const chunks = Math.round((seconds * 1000) / chunkDelayMs);

const fake = new FakeTelegram({ token: testToken });
await fake.start();
const ids = Array.from({ length: chats }, (_, i) => 5000 + i);
const h = await startHarness({
  config: { logging: { level: 'warn' } },
  adapters: ({ profile, clock, logger }) => [
    {
      adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ids.map(String) } }),
      allow: ids.map(String),
    },
  ],
});
h.fake.setResponder(() => ({ chunks: Array.from({ length: chunks }, (_, i) => `token${i} `), chunkDelayMs }));
const expected = Array.from({ length: chunks }, (_, i) => `token${i}`).join(' ');

let rssPeak = 0;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 500);
const started = Date.now();
for (const id of ids) fake.pushMessage({ chat: { id, type: 'private' }, from: { id, first_name: `u${id}` }, text: 'tell me a long story' });
await fake.waitFor({ predicate: (f) => ids.every((id) => f.chatMessages(id)[0]?.shown === expected), timeoutMs: (seconds + 60) * 1000 });
const elapsed = (Date.now() - started) / 1000;
clearInterval(sampler);

let worstWindow = 0;
const rates: number[] = [];
const lags: number[] = [];
for (const id of ids) {
  const ops = fake.calls.filter((c) => (c.method === 'sendMessage' || c.method === 'editMessageText') && String(c.params['chat_id']) === String(id) && c.status === 200);
  const times = ops.map((c) => c.at).sort((a, b) => a - b);
  for (let i = 0; i < times.length; i++) {
    let j = i;
    while (j + 1 < times.length && (times[j + 1] ?? 0) - (times[i] ?? 0) < 1000) j++;
    worstWindow = Math.max(worstWindow, j - i + 1);
  }
  const span = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
  rates.push(span > 0 ? (times.length - 1) / span : 0);
}
// The model's last token for each chat: request arrival + the scripted stream duration.
const requests = h.fake.requests.slice(-chats);
for (const [i, id] of ids.entries()) {
  const lastToken = (requests[i]?.time ?? started) + chunks * chunkDelayMs;
  const final = fake.calls.filter((c) => c.method === 'editMessageText' && String(c.params['chat_id']) === String(id) && c.status === 200).at(-1);
  if (final) lags.push(final.at - lastToken);
}
lags.sort((a, b) => a - b);
rates.sort((a, b) => a - b);
console.log(`node ${process.version}: ${chats} chats, a ${seconds}s answer each (${chunks} tokens), finished in ${elapsed.toFixed(1)}s`);
console.log(`edits per chat per second: mean ${(rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(2)}, max ${(rates.at(-1) ?? 0).toFixed(2)}; most calls to one chat within any 1 s: ${worstWindow} (must be ≤ 1)`);
console.log(`final-text lag after the last token: p50 ${percentile({ sorted: lags, p: 50 }).toFixed(0)} ms, p99 ${percentile({ sorted: lags, p: 99 }).toFixed(0)} ms, max ${(lags.at(-1) ?? 0).toFixed(0)} ms`);
console.log(`RSS peak ${(rssPeak / 1024 / 1024).toFixed(0)} MB; Bot API calls ${fake.calls.length}`);
await h.stop();
await fake.close();
