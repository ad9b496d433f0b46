import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { contextLengthCheck } from '../../../src/doctor/context-length.js';
import { formatCheckLine } from '../../../src/core/check-line.js';
import { systemClock } from '../../../src/core/clock.js';
import { FakeOpenAI } from '../../fakes/openai/server.js';
import { configOf } from './support.js';

describe('hermes doctor: the context length in force', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  test("from the endpoint's /models, from the config, or the default; one line each", async () => {
    fake = new FakeOpenAI();
    await fake.start();
    fake.modelMetadata = { 'fake-model': { max_model_len: 128_000 } };
    const model = { base_url: fake.baseURL, api_key: 'k', name: 'fake-model' };
    const endpoint = await contextLengthCheck({ config: configOf({ model }), clock: systemClock, ask: true });
    assert.equal(formatCheckLine({ check: endpoint }), "✓ context length: 128,000 tokens (from the endpoint's /models)");
    const configured = await contextLengthCheck({ config: configOf({ model: { ...model, context_length: 64_000 } }), clock: systemClock, ask: true });
    assert.equal(formatCheckLine({ check: configured }), '✓ context length: 64,000 tokens (from model.context_length in the config)');
    const listings = fake.modelListings.length;
    const unasked = await contextLengthCheck({ config: configOf({ model }), clock: systemClock, ask: false });
    assert.equal(formatCheckLine({ check: unasked }), '✓ context length: 32,768 tokens (a default: set model.context_length to change it)');
    assert.equal(fake.modelListings.length, listings, 'a failed endpoint check is not asked again');
  });
});
