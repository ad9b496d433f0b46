import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from '../../../src/config/errors.js';
import { objectShape } from '../../../src/config/schema-walk.js';
import { renderEffectiveConfig } from '../../../src/config/show.js';
import { parseConfigText } from '../../../src/config/yaml-file.js';
import { platforms } from '../../../adapters/index.js';
import { validateConfig } from '../../../src/config/validate.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** The config `tree` gives, or the ConfigError's messages. */
function load(tree: unknown): ReturnType<typeof validateConfig>['config'] | string {
  try {
    return validateConfig({ schema: configSchema,  tree, file: 'config.yaml' }).config;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

describe('heartbeat and checks config', () => {
  test('defaults: heartbeat off every 30 minutes, no checks', () => {
    const config = load({});
    assert.ok(typeof config !== 'string');
    assert.deepEqual(config.heartbeat, { enabled: false, interval: 30 * 60_000 });
    assert.deepEqual(config.checks, []);
  });

  test('a full heartbeat and checks with intervals read like job intervals', () => {
    const config = load({
      heartbeat: { enabled: true, interval: '1h', target: 'telegram', quiet_hours: '23:00-07:00' },
      checks: [
        { name: 'disk', command: 'df -h', interval: '30m' },
        { name: 'mail', command: 'fetch-mail', interval: 'every 2h', once: true, prompt: 'New mail', target: 'slack' },
      ],
    });
    assert.ok(typeof config !== 'string', String(config));
    assert.equal(config.heartbeat.interval, 3_600_000);
    assert.equal(config.checks[0]?.interval, 1_800_000);
    assert.equal(config.checks[0]?.once, false);
    assert.equal(config.checks[1]?.interval, 7_200_000);
    assert.equal(config.checks[1]?.target, 'slack');
  });

  test('refused: enabled without a target, bad quiet hours, duplicate names, cron or second intervals, unknown platforms', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ heartbeat: { enabled: true } }, /heartbeat\.target/],
      [{ heartbeat: { quiet_hours: '25:00-07:00' } }, /heartbeat\.quiet_hours/],
      [{ heartbeat: { interval: '10s' } }, /heartbeat\.interval/],
      [{ checks: [{ name: 'a', command: 'x', interval: '5m' }, { name: 'a', command: 'y', interval: '5m' }] }, /not used by another check/],
      [{ checks: [{ name: 'a', command: 'x', interval: '0 8 * * *' }] }, /checks\.0\.interval|checks\[0\]\.interval/],
      [{ checks: [{ name: 'a', command: 'x', interval: '30s' }] }, /too fine/],
      [{ checks: [{ name: 'a', command: 'x', interval: '5m', target: 'irc' }] }, /target/],
      [{ checks: [{ name: 'a b', command: 'x', interval: '5m' }] }, /name/],
    ];
    for (const [tree, pattern] of cases) {
      const result = load(tree);
      assert.equal(typeof result, 'string', JSON.stringify(tree));
      assert.match(String(result), pattern, JSON.stringify(tree));
    }
  });

  test('the target platforms are exactly the platforms config.yaml knows (adapters/index.ts): each accepted, another refused naming them', () => {
    for (const platform of platforms) {
      const config = load({ heartbeat: { enabled: true, target: platform.name }, checks: [{ name: 'a', command: 'x', interval: '5m', target: platform.name }] });
      assert.notEqual(typeof config, 'string', platform.name);
    }
    const refused = String(load({ heartbeat: { enabled: true, target: 'irc' } }));
    assert.match(refused, /heartbeat\.target/);
    for (const platform of platforms) assert.ok(refused.includes(platform.name), refused);
  });

  test('hermes config show prints check intervals as durations, and the output parses back to the same config', () => {
    const config = load({ heartbeat: { quiet_hours: '23:00-07:00' }, checks: [{ name: 'disk', command: 'df', interval: 'every 90 minutes', once: true }] });
    assert.ok(typeof config !== 'string');
    const text = renderEffectiveConfig({ schema: configSchema,  config, secrets: [] });
    assert.match(text, /interval: 90m/);
    assert.deepEqual(load(parseConfigText({ text, file: 'shown.yaml' })), config);
  });
});
