import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/config/errors.js';
import { loadAppConfig } from '../../../src/app/config-schema.js';
import { parseConfigText } from '../../../src/config/yaml-file.js';
import { tempProfile } from './temp-profile.js';

/** Parses config text and returns the ConfigError it must fail with. */
function parseError(text: string): ConfigError {
  try {
    parseConfigText({ text, file: '/p/config.yaml' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  assert.fail('expected a ConfigError');
}

describe('YAML aliases in config.yaml', () => {
  test('a recursive alias is a ConfigError (exit 78) naming the file, not a stack overflow', async () => {
    const { profile, cleanup } = tempProfile({ config: 'a: &a [*a]\n' });
    try {
      await assert.rejects(loadAppConfig({ profile, env: {} }), (error: unknown) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.equal(error.exitCode, 78);
        assert.ok(error.message.includes(`${profile.configPath}:1:8`), error.message);
        assert.match(error.message, /aliases must not refer to themselves/);
        assert.match(error.hint ?? '', /\*a/);
        return true;
      });
    } finally {
      cleanup();
    }
  });

  test('an alias nested deeper inside its own anchor is caught too', () => {
    const error = parseError('gateway: &g\n  http:\n    extra: *g\n');
    assert.match(error.message, /^\/p\/config\.yaml:3:12: YAML alias \*g .*must not refer to themselves/);
  });

  test('an alias without an anchor before it is a ConfigError with line:col', () => {
    const error = parseError('model:\n  name: *nope\n');
    assert.match(error.message, /\/p\/config\.yaml:2:9: .*\*nope has no anchor &nope before it/);
  });

  test('exponential alias expansion is a ConfigError, not a hang', () => {
    const ten = (name: string) => `[${Array.from({ length: 10 }, () => `*${name}`).join(', ')}]`;
    const text = `a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: &b ${ten('a')}\nc: &c ${ten('b')}\nd: &d ${ten('c')}\n`;
    const error = parseError(text);
    assert.match(error.message, /aliases expand to too many values/);
    assert.equal(error.exitCode, 78);
  });

  test('ordinary aliases still work', () => {
    const tree = parseConfigText({ text: 'x: &x\n  y: 1\nz: *x\n', file: '/p/config.yaml' });
    assert.deepEqual(tree, { x: { y: 1 }, z: { y: 1 } });
  });
});
