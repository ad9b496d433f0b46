import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noticeAllowed, REVIEW_MAX_TIMEOUT_MS, reviewNotice, reviewTimeoutMs } from '../../../src/gateway/review/review.js';

test('the review notice is never an SMS or an email of its own; chat platforms get it', () => {
  assert.equal(noticeAllowed({ platform: 'sms' }), false);
  assert.equal(noticeAllowed({ platform: 'email' }), false);
  for (const platform of ['telegram', 'slack', 'discord', 'terminal']) assert.equal(noticeAllowed({ platform }), true, platform);
  assert.equal(reviewNotice({ saved: [{ kind: 'skill', name: 'a', action: 'create' }, { kind: 'skill', name: 'a', action: 'patch' }, { kind: 'memory', action: 'add' }] }), 'saved skill: a; saved a memory entry');
});

test('a review is capped at one request timeout per allowed model call, and never past the fixed cap', () => {
  assert.equal(reviewTimeoutMs({ requestTimeoutMs: 30_000 }), 8 * 30_000);
  assert.equal(reviewTimeoutMs({ requestTimeoutMs: 120_000 }), REVIEW_MAX_TIMEOUT_MS);
});
