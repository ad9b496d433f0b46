import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTelegramChat } from '../helpers/telegram-chat.js';

test('telegram: /model NAME changes the next request and survives a restart; /usage shows tokens and a cost; the menu lists the commands', { timeout: 30_000 }, async () => {
  const { fake, h, say, stop } = await startTelegramChat({
    config: { model: { pricing: { 'fake-model': { input: 1, output: 2 }, 'other-model': { input: 10, output: 20 } } } },
  });
  try {
    h.fake.models = ['fake-model', 'other-model'];
    await fake.waitFor({ predicate: (f) => f.myCommands().length > 0, timeoutMs: 10_000 });
    const menu = fake.myCommands().map((c) => c.command);
    for (const name of ['model', 'usage', 'title', 'sessions', 'resume', 'verbose']) assert.ok(menu.includes(name), name);

    h.fake.enqueue({ text: 'first answer', usage: { prompt_tokens: 100_000, completion_tokens: 10_000, cached_tokens: 0 } });
    assert.equal(await say('hello'), 'first answer');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'fake-model');
    assert.match(await say('/model@hermes_bot other-model'), /now uses other-model/);
    h.fake.enqueue({ text: 'second answer', usage: { prompt_tokens: 100_000, completion_tokens: 10_000, cached_tokens: 0 } });
    assert.equal(await say('again'), 'second answer');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'other-model');

    await h.restart();
    h.fake.enqueue({ text: 'third answer', usage: { prompt_tokens: 100_000, completion_tokens: 10_000, cached_tokens: 0 } });
    assert.equal(await say('after the restart'), 'third answer');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'other-model', 'the choice survived the restart');

    const usage = await say('/usage');
    assert.match(usage, /^Usage: 3 model calls, 300,000 prompt \/ 30,000 completion tokens/m, usage);
    assert.match(usage, /^• other-model: 2 calls, 200,000 prompt \/ 20,000 completion/m, usage);
    // fake-model: 0.1 + 0.02; other-model: 2 × (1.0 + 0.2).
    assert.match(usage, /^Estimated cost: \$2\.52 \(from model\.pricing\)$/m, usage);
  } finally {
    await stop();
  }
});
