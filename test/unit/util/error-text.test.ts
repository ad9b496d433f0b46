import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCodeText, errorMessage } from '../../../src/util/error-text.js';

test('errorMessage: an Error its message, anything else as String() makes it', () => {
  assert.equal(errorMessage(new Error('disk on fire')), 'disk on fire');
  assert.equal(errorMessage(new TypeError('')), '');
  assert.equal(errorMessage('plain text'), 'plain text');
  assert.equal(errorMessage(42), '42');
  assert.equal(errorMessage(undefined), 'undefined');
  assert.equal(errorMessage({ message: 'not an Error' }), '[object Object]');
});

test("errorCodeText: an Error's code as text, 'unknown error' without one", () => {
  assert.equal(errorCodeText(Object.assign(new Error('x'), { code: 'ENOENT' })), 'ENOENT');
  assert.equal(errorCodeText(Object.assign(new Error('x'), { code: 5 })), '5');
  assert.equal(errorCodeText(new Error('x')), 'unknown error');
  assert.equal(errorCodeText({ code: 'ENOENT' }), 'unknown error');
});
