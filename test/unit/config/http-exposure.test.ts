import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost } from '../../../src/util/loopback.js';
import { loadTempConfig as load } from './temp-profile.js';

describe('gateway.http.host exposure warning', () => {
  test('a non-loopback host loads, with a warning that names file, key and the risk', async () => {
    const { loaded, configPath } = await load('gateway:\n  http:\n    host: 0.0.0.0\n');
    assert.equal(loaded.config.gateway.http.host, '0.0.0.0');
    const warning = loaded.warnings.find((w) => w.keyPath === 'gateway.http.host');
    assert.ok(warning, JSON.stringify(loaded.warnings));
    assert.equal(warning.file, configPath);
    assert.ok(warning.message.startsWith(`${configPath}: gateway.http.host: 0.0.0.0 is not a loopback address`), warning.message);
    assert.match(warning.message, /webhooks and \/healthz will be reachable from the network/);
    assert.match(warning.message, /signatures are then the only protection/);
  });

  test('loopback hosts (default, 127.0.0.0/8, ::1, localhost) give no warning', async () => {
    for (const host of [undefined, '127.0.0.1', '127.1.2.3', '::1', '"[::1]"', 'localhost']) {
      const { loaded } = await load(host === undefined ? '' : `gateway:\n  http:\n    host: ${host}\n`);
      assert.deepEqual(loaded.warnings, [], `host ${host ?? '(default)'}`);
    }
  });

  test('no warning when the HTTP server is disabled', async () => {
    const { loaded } = await load('gateway:\n  http:\n    enabled: false\n    host: 0.0.0.0\n');
    assert.deepEqual(loaded.warnings, []);
  });

  test('isLoopbackHost', () => {
    for (const host of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'LOCALHOST', '[::1]']) {
      assert.equal(isLoopbackHost({ host }), true, host);
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '192.168.1.5', 'example.com', 'localhost.example.com', '::2']) {
      assert.equal(isLoopbackHost({ host }), false, host);
    }
  });
});
