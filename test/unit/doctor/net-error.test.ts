import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeNetworkError } from '../../../adapters/kit/net-error.js';

const live = new AbortController().signal;

test('network failures are described in words: refused, unsafe port, other causes', async () => {
  const refused = Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  assert.equal(describeNetworkError({ error: refused, signal: live, what: '127.0.0.1:1' }), 'cannot connect to 127.0.0.1:1 (connection refused: nothing listens there)');
  // fetch itself refuses some ports (9, 25, 6000, ...): the real error, not a made-up one.
  const badPort = await fetch('http://127.0.0.1:9/').then(() => undefined, (error: unknown) => error);
  assert.equal(describeNetworkError({ error: badPort, signal: live, what: '127.0.0.1:9' }), 'cannot connect to 127.0.0.1:9 (fetch refuses this port as unsafe: use another port)');
  const other = new Error('fetch failed', { cause: new Error('something odd') });
  assert.equal(describeNetworkError({ error: other, signal: live, what: 'h:1' }), 'request to h:1 failed (fetch failed: something odd)');
});
