import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { CORRECTION_MAX, CORRECTION_MIN, CorrectionFactors } from '../../../../src/agent/tokens/correction.js';
import { estimatePromptTokens } from '../../../../src/agent/tokens/estimate.js';
import { TokenMeter } from '../../../../src/agent/tokens/meter.js';
import { startRig, toolContextFor, type Rig } from '../support.js';

describe('correction by reported usage', () => {
  test('the first report sets the factor, later ones move it smoothly; per model; bounded', () => {
    const factors = new CorrectionFactors();
    assert.equal(factors.factor({ model: 'm' }), 1);
    factors.observe({ model: 'm', estimate: 1000, reported: 1200 });
    assert.equal(factors.factor({ model: 'm' }), 1.2);
    factors.observe({ model: 'm', estimate: 1000, reported: 1000 });
    assert.ok(Math.abs(factors.factor({ model: 'm' }) - (1.2 + 0.3 * (1 - 1.2))) < 1e-9);
    assert.equal(factors.factor({ model: 'other' }), 1);
    factors.observe({ model: 'wild', estimate: 100, reported: 600 });
    assert.equal(factors.factor({ model: 'wild' }), CORRECTION_MAX);
    factors.observe({ model: 'tiny', estimate: 1000, reported: 300 });
    assert.equal(factors.factor({ model: 'tiny' }), CORRECTION_MIN);
  });

  test('unusable reports are ignored: none, zero, or a too-small estimate', () => {
    const factors = new CorrectionFactors();
    factors.observe({ model: 'm', estimate: 1000, reported: null });
    factors.observe({ model: 'm', estimate: 1000, reported: 0 });
    factors.observe({ model: 'm', estimate: 3, reported: 9 });
    assert.equal(factors.factor({ model: 'm' }), 1);
  });

  test('absurd reports cannot run the factor away: 1 token for a 1,000-token prompt, or 100× the estimate, are ignored', () => {
    const factors = new CorrectionFactors();
    factors.observe({ model: 'm', estimate: 1000, reported: 1 });
    factors.observe({ model: 'm', estimate: 1000, reported: 100_000 });
    factors.observe({ model: 'm', estimate: 1000, reported: Number.POSITIVE_INFINITY });
    assert.equal(factors.factor({ model: 'm' }), 1, 'broken reports leave the factor alone');
    factors.observe({ model: 'm', estimate: 1000, reported: 1100 });
    for (let i = 0; i < 20; i++) factors.observe({ model: 'm', estimate: 1000, reported: 1_000_000 });
    assert.equal(factors.factor({ model: 'm' }), 1.1, 'a run of absurd reports does not move a learnt factor');
    const meter = new TokenMeter();
    const request = { model: 'fallback-model', messages: [{ role: 'user' as const, content: 'word '.repeat(400) }] };
    meter.observe({ request, reportedPromptTokens: 0 });
    meter.observe({ request, reportedPromptTokens: 50_000_000 });
    assert.equal(meter.factor({ model: 'fallback-model' }), 1);
    assert.equal(meter.factor({ model: 'gpt-4o' }), 1, 'each model its own factor (a fallback does not skew the primary)');
  });
});

describe('TokenMeter through the real openai SDK against the fake', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  test("the agent feeds each call's reported prompt tokens back: the next estimate of the same request is corrected", async () => {
    const meter = new TokenMeter();
    rig = await startRig({ tokenMeter: meter });
    rig.fake.enqueue({ text: 'done', usage: { prompt_tokens: 500, completion_tokens: 2 } });
    const result = await rig.agent.run({
      systemPrompt: 'You are a test agent. '.repeat(20),
      history: [],
      userText: 'Say done, please, and nothing else at all.',
      signal: new AbortController().signal,
      onTextDelta: () => undefined,
      onMessage: () => undefined,
      toolContext: toolContextFor({ workspace: rig.workspace }),
    });
    assert.equal(result.text, 'done');
    const sent = rig.fake.requests[0]?.body;
    assert.ok(sent);
    const request = { model: String(sent['model']), messages: sent['messages'] as unknown as ChatCompletionMessageParam[] };
    const raw = estimatePromptTokens({ request });
    assert.ok(raw > 16 && raw < 500, `raw estimate ${raw}`);
    assert.ok(Math.abs(meter.factor({ model: 'fake-model' }) - 500 / raw) < 1e-9);
    const estimate = meter.estimate({ request });
    assert.equal(estimate.raw, raw);
    assert.equal(estimate.tokens, 500);
  });

  test('an endpoint that reports no usage leaves the factor at 1', async () => {
    const meter = new TokenMeter();
    rig = await startRig({ tokenMeter: meter });
    rig.fake.reportUsage = false;
    rig.fake.enqueue({ text: 'done' });
    await rig.agent.run({
      systemPrompt: 'You are a test agent.',
      history: [],
      userText: 'go',
      signal: new AbortController().signal,
      onTextDelta: () => undefined,
      onMessage: () => undefined,
      toolContext: toolContextFor({ workspace: rig.workspace }),
    });
    assert.equal(meter.factor({ model: 'fake-model' }), 1);
  });
});
