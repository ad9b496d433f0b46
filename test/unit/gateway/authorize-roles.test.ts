import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authorize } from '../../../src/core/authorize.js';

describe('authorize: role:<id> entries', () => {
  const member = { id: '7', username: 'alice', isBot: false, roles: ['900', '901'] };

  test('a sender holding a listed role passes', () => {
    assert.equal(authorize({ sender: member, allow: ['role:901'] }).allowed, true);
  });

  test('other roles, a bare role id, and senders without roles do not', () => {
    assert.deepEqual(authorize({ sender: member, allow: ['role:902'] }), { allowed: false, reason: 'not-allowed' });
    assert.equal(authorize({ sender: member, allow: ['900'] }).allowed, false, 'a bare id is a user id, not a role');
    assert.equal(authorize({ sender: { id: '8', isBot: false }, allow: ['role:900'] }).allowed, false);
    assert.equal(authorize({ sender: { id: 'role:900', isBot: false }, allow: ['role:900'] }).allowed, false, 'a user id never matches a role entry');
  });

  test('a bot with the role is still refused', () => {
    assert.deepEqual(authorize({ sender: { ...member, isBot: true }, allow: ['role:900'] }), { allowed: false, reason: 'bot' });
  });
});
