import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTempConfig as load } from './temp-profile.js';

describe('compression keys and the deprecated agent.history_max_chars', () => {
  test('compression defaults: threshold 0.5, tail_ratio 0.2, summary_max_tokens 12000', async () => {
    const { loaded } = await load('');
    assert.deepEqual(loaded.config.compression, { threshold: 0.5, tail_ratio: 0.2, summary_max_tokens: 12_000 });
    assert.deepEqual(loaded.warnings, []);
  });

  test('agent.history_max_chars still loads, with one warning naming file and key', async () => {
    const { loaded, configPath } = await load('agent:\n  history_max_chars: 50000\n');
    const warning = loaded.warnings.find((w) => w.keyPath === 'agent.history_max_chars');
    assert.ok(warning, JSON.stringify(loaded.warnings));
    assert.equal(warning.file, configPath);
    assert.match(warning.message, /deprecated and ignored/);
    assert.match(warning.message, /compression\.threshold/);
  });

  test('a threshold out of range is a config error', async () => {
    await assert.rejects(load('compression:\n  threshold: 1.5\n'));
  });
});
