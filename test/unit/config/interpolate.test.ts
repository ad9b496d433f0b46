import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/config/errors.js';
import { interpolateTree } from '../../../src/config/interpolate.js';

const where = { file: '/h/config.yaml', envFile: '/h/.env' };

describe('interpolateTree', () => {
  test('replaces set variables and defaults in every string scalar, not in keys', () => {
    const tree = {
      model: { api_key: '${KEY}', base_url: 'http://${HOST:-localhost}:${PORT:-8080}/v1' },
      '${KEY}': 'key stays',
      list: ['a-${KEY}', 3, true, null],
    };
    const out = interpolateTree({ tree, env: { KEY: 'k1', PORT: '9' }, ...where });
    assert.deepEqual(out, {
      model: { api_key: 'k1', base_url: 'http://localhost:9/v1' },
      '${KEY}': 'key stays',
      list: ['a-k1', 3, true, null],
    });
    assert.equal(tree.model.api_key, '${KEY}', 'input not mutated');
  });

  test(':- also applies when the variable is set but empty', () => {
    assert.deepEqual(interpolateTree({ tree: { a: '${E:-d}', b: '${E}' }, env: { E: '' }, ...where }), { a: 'd', b: '' });
  });

  test('$${VAR} is a literal ${VAR}', () => {
    const out = interpolateTree({ tree: { a: 'cost $${PRICE} and ${X}', b: '$${X:-y}' }, env: { X: '1' }, ...where });
    assert.deepEqual(out, { a: 'cost ${PRICE} and 1', b: '${X:-y}' });
  });

  test('an unset variable without default is an error at its key path', () => {
    assert.throws(
      () => interpolateTree({ tree: { model: { api_key: '${OPENAI_API_KEY}' }, x: ['${MISSING}'] }, env: {}, ...where }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.exitCode, 78);
        assert.equal(error.keyPath, 'model.api_key');
        assert.equal(
          error.message,
          '2 problems:\n' +
            '  - /h/config.yaml: model.api_key: ${OPENAI_API_KEY} is not set; add it to /h/.env or give a default with ${OPENAI_API_KEY:-...}\n' +
            '  - /h/config.yaml: x[0]: ${MISSING} is not set; add it to /h/.env or give a default with ${MISSING:-...}',
        );
        assert.equal(error.problems[1]?.keyPath, 'x[0]');
        return true;
      },
    );
  });

  test('malformed references are errors', () => {
    assert.throws(() => interpolateTree({ tree: { a: '${1BAD}' }, env: {}, ...where }), /is not a valid reference/);
    assert.throws(() => interpolateTree({ tree: { a: 'x ${OPEN' }, env: {}, ...where }), /has no closing/);
  });
});
