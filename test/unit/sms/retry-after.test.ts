import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryAfterMsOf } from '../../../adapters/sms/rest-client.js';

test('Retry-After is read as seconds or as an HTTP date; anything else is undefined', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  assert.equal(retryAfterMsOf({ header: '3', now }), 3000);
  assert.equal(retryAfterMsOf({ header: 'Sun, 29 Nov 2026 12:00:05 GMT', now }), 5000);
  assert.equal(retryAfterMsOf({ header: 'Sun, 29 Nov 2026 11:59:00 GMT', now }), 0, 'a date in the past means now');
  assert.equal(retryAfterMsOf({ header: 'soon', now }), undefined);
  assert.equal(retryAfterMsOf({ header: undefined, now }), undefined);
});
