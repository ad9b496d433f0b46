import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectSecrets } from '../../../src/config/secrets.js';
import { looksSecretKey } from '../../../src/config/secret-keys.js';
import { validateConfig } from '../../../src/config/validate.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

describe('model keys are secrets', () => {
  test('api_key, api_keys and every fallback key are collected for the Redactor', () => {
    const tree = {
      model: {
        api_key: 'sk-primary-one-11111111',
        api_keys: ['sk-primary-two-22222222'],
        fallbacks: [{ name: 'b', base_url: 'http://127.0.0.1:1/v1', api_key: 'sk-fallback-33333333', api_keys: ['sk-fallback-44444444'] }],
      },
    };
    const { config } = validateConfig({ schema: configSchema,  tree, file: 'test' });
    assert.ok(config);
    const secrets = collectSecrets({ config, envFileValues: {} });
    for (const key of ['sk-primary-one-11111111', 'sk-primary-two-22222222', 'sk-fallback-33333333', 'sk-fallback-44444444']) {
      assert.ok(secrets.includes(key), key);
    }
    assert.ok(!secrets.includes('b') && !secrets.includes('http://127.0.0.1:1/v1'), 'names and URLs are not secrets');
    assert.equal(looksSecretKey({ key: 'key_strategy' }), false, 'the strategy name is no secret (it would redact "least_used" everywhere)');
    assert.ok(!secrets.includes('least_used'));
  });
});
