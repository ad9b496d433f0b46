import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { encodingLoaded } from '../../../../src/agent/tokens/encoding.js';
import { estimatePromptTokens } from '../../../../src/agent/tokens/estimate.js';
import { TokenMeter } from '../../../../src/agent/tokens/meter.js';

const words = 'the quick brown fox jumps over the lazy dog while the gateway counts what it sends ';

function request(params: { chars: number }): { model: string; messages: ChatCompletionMessageParam[] } {
  const text = words.repeat(Math.ceil(params.chars / words.length)).slice(0, params.chars);
  return { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: text }] };
}

// Each test file runs in its own process, so nothing else loaded the tables before these tests.
test('the gateway\'s meter (tokenizer: never) answers near and past every limit from the cheap estimate, learns from reports, and never loads the tables', () => {
  const meter = new TokenMeter({ tokenizer: 'never' });
  const big = request({ chars: 20_000 });
  for (const within of [undefined, 1_000, 10_000, 100_000]) {
    const estimate = meter.estimate({ request: big, ...(within === undefined ? {} : { within }) });
    assert.equal(estimate.exact, false);
    // The bytes ratio errs high for English (o200k counts ~4.4 characters a token in this text).
    assert.ok(estimate.tokens >= 20_000 / 3.5 && estimate.tokens <= 20_000 / 3.5 + 20, `estimate ${estimate.tokens}`);
  }
  meter.observe({ request: big, reportedPromptTokens: 4_500 });
  const learned = meter.estimate({ request: big, within: 5_000 });
  assert.ok(Math.abs(learned.tokens - 4_500) <= 2, `after the report the estimate is ${learned.tokens}, not ~4,500`);
  assert.equal(encodingLoaded({ encoding: 'o200k_base' }), false, 'the gateway\'s meter loaded o200k');
});

test('far under the limit the meter answers from the cheap estimate and never loads the tokenizer tables', () => {
  const meter = new TokenMeter();
  const small = request({ chars: 4_000 });
  const estimate = meter.estimate({ request: small, within: 100_000 });
  assert.equal(estimate.exact, false);
  assert.equal(encodingLoaded({ encoding: 'o200k_base' }), false, 'o200k was loaded for a request far from the limit');
  // Learning from a report keeps the tables unloaded too, and the cheap figure then matches the report.
  meter.observe({ request: small, reportedPromptTokens: 880 });
  assert.equal(encodingLoaded({ encoding: 'o200k_base' }), false);
  const learned = meter.estimate({ request: small, within: 100_000 });
  assert.ok(Math.abs(learned.tokens - 880) <= 2, `after the report the cheap estimate is ${learned.tokens}, not ~880`);
});

test('near the limit (or without one) the count is exact, and the cheap path never says "under" when the exact count is over', () => {
  const meter = new TokenMeter();
  const big = request({ chars: 20_000 });
  // Its bytes (~20,000) pass a limit of 10,000 tokens: only the tokenizer can tell.
  const near = meter.estimate({ request: big, within: 10_000 });
  assert.equal(near.exact, true);
  assert.equal(encodingLoaded({ encoding: 'o200k_base' }), true);
  assert.equal(near.raw, estimatePromptTokens({ request: big }));
  assert.equal(meter.estimate({ request: big }).exact, true);
  for (const chars of [500, 2_000, 8_000, 30_000]) {
    const r = request({ chars });
    const exact = estimatePromptTokens({ request: r });
    for (const within of [exact - 1, exact, exact + 1, exact * 2, chars + 100]) {
      const e = meter.estimate({ request: r, within });
      if (!e.exact) {
        assert.ok(e.tokens < within, `cheap figure ${e.tokens} is not under ${within}`);
        assert.ok(exact < within, `the cheap path was taken at ${within} though the exact count is ${exact}`);
      }
    }
  }
});
