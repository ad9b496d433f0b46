import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { renderEffectiveConfig } from '../../../src/config/show.js';
import { validateConfig } from '../../../src/config/validate.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

describe('renderEffectiveConfig', () => {
  test('masks secret-looking keys and any value equal to a secret', () => {
    const { config } = validateConfig({ schema: configSchema, 
      file: 'c.yaml',
      tree: {
        model: { api_key: 'sk-live-canary-1', name: 'from-env-secret', max_tokens: 4096 },
        platforms: { slack: { bot_token: 'xoxb-canary', signing_secret: 'sig-canary' }, email: { password: 'pw-canary' } },
        agent: { system_prompt: 'use from-env-secret wisely' },
      },
    });
    const text = renderEffectiveConfig({ schema: configSchema,  config, secrets: ['from-env-secret', 'sk-live-canary-1'] });
    for (const canary of ['sk-live-canary-1', 'from-env-secret', 'xoxb-canary', 'sig-canary', 'pw-canary']) {
      assert.ok(!text.includes(canary), `${canary} leaked:\n${text}`);
    }
    const shown = parse(text) as {
      model: Record<string, unknown>;
      platforms: { slack: Record<string, unknown> };
      agent: Record<string, unknown>;
    };
    assert.equal(shown.model['api_key'], '***');
    assert.equal(shown.model['name'], '***');
    assert.equal(shown.model['max_tokens'], 4096, 'max_tokens is not a secret');
    assert.equal(shown.platforms.slack['bot_token'], '***');
    assert.equal(shown.agent['system_prompt'], 'use *** wisely');
  });

  test('prints durations and sizes so the output loads back to the same config', () => {
    const { config } = validateConfig({ schema: configSchema, 
      file: 'c.yaml',
      tree: { gateway: { drain_timeout: '2m' }, stream: { edit_interval: '1500ms' }, logging: { max_size: '64k' } },
    });
    const text = renderEffectiveConfig({ schema: configSchema,  config, secrets: [] });
    assert.match(text, /drain_timeout: 2m/);
    assert.match(text, /edit_interval: 1500ms/);
    assert.match(text, /max_size: 64k/);
    const again = validateConfig({ schema: configSchema,  file: 'shown.yaml', tree: parse(text) });
    assert.deepEqual(again.config, config);
    assert.deepEqual(again.warnings, []);
  });
});
