import assert from 'node:assert/strict';
import { test } from 'node:test';
import { costOf, priceOf } from '../../../src/gateway/commands/usage.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

const usage = { calls: 1, unreported: 0, promptTokens: 1_000_000, completionTokens: 500_000, cachedTokens: 400_000 };

test('costOf: uncached prompt at input, cached at cached_input (else input), completion at output, per million tokens', () => {
  assert.equal(costOf({ usage, price: { input: 2, output: 8, cached_input: 0.5 } }), 0.6 * 2 + 0.4 * 0.5 + 0.5 * 8);
  assert.equal(costOf({ usage, price: { input: 2, output: 8 } }), 1 * 2 + 0.5 * 8);
});

test('model.pricing: one price for all models or prices by name; anything else is refused', () => {
  const one = configSchema.parse({ model: { pricing: { input: 1, output: 2 } } }).model.pricing;
  assert.ok(one);
  assert.deepEqual(priceOf({ pricing: one, model: 'anything' }), { input: 1, output: 2 });
  const byName = configSchema.parse({ model: { pricing: { 'gpt-4o': { input: 2.5, output: 10, cached_input: 1.25 } } } }).model.pricing;
  assert.ok(byName);
  assert.deepEqual(priceOf({ pricing: byName, model: 'gpt-4o' }), { input: 2.5, output: 10, cached_input: 1.25 });
  assert.equal(priceOf({ pricing: byName, model: 'other' }), undefined);
  assert.equal(priceOf({ pricing: byName, model: 'constructor' }), undefined);
  assert.equal(configSchema.safeParse({ model: { pricing: { input: -1, output: 2 } } }).success, false);
  assert.equal(configSchema.safeParse({ model: { pricing: { input: 1 } } }).success, false);
});
