import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatSize, parseDuration, parseSize } from '../../../src/util/units.js';
import { looksSecretKey } from '../../../src/config/secret-keys.js';

describe('units', () => {
  test('parseDuration: numbers are seconds, strings carry a unit', () => {
    const cases: [unknown, number | undefined][] = [
      [2, 2000], [0.25, 250], ['500ms', 500], ['1s', 1000], ['2m', 120_000], ['1h', 3_600_000], ['45', 45_000],
      [' 3 s ', 3000], ['1.5m', 90_000], ['-1s', undefined], ['soon', undefined], [true, undefined], [-1, undefined], ['1d', 86_400_000], ['1w', undefined],
    ];
    for (const [value, expected] of cases) assert.equal(parseDuration({ value }), expected, String(value));
  });

  test('parseSize: numbers are bytes, k/m/g are powers of 1024', () => {
    const cases: [unknown, number | undefined][] = [
      [100, 100], ['100', 100], ['1k', 1024], ['10m', 10 * 1024 ** 2], ['1G', 1024 ** 3], ['2kb', 2048], ['1x', undefined], [{}, undefined],
    ];
    for (const [value, expected] of cases) assert.equal(parseSize({ value }), expected, String(value));
  });

  test('format* round-trips through parse*', () => {
    for (const ms of [1, 250, 1000, 1500, 60_000, 90_000, 3_600_000, 0]) {
      assert.equal(parseDuration({ value: formatDuration({ ms }) }), ms);
    }
    assert.equal(formatDuration({ ms: 120_000 }), '2m');
    for (const bytes of [1, 1000, 1024, 1536, 10 * 1024 ** 2, 1024 ** 3]) {
      assert.equal(parseSize({ value: formatSize({ bytes }) }), bytes);
    }
  });

  test('looksSecretKey matches whole words only', () => {
    for (const key of ['api_key', 'apiKey', 'bot_token', 'auth_token', 'signing_secret', 'password', 'Authorization', 'x-api-key']) {
      assert.ok(looksSecretKey({ key }), key);
    }
    for (const key of ['max_tokens', 'name', 'keyboard', 'author', 'monkey']) {
      assert.ok(!looksSecretKey({ key }), key);
    }
  });
});
