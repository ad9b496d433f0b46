import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reviewDue, type ReviewCounts, type ReviewSchedule } from '../../../../src/agent/review/due.js';

const schedule: ReviewSchedule = { enabled: true, skillInterval: 10, memoryInterval: 10 };
const counts = (over: Partial<ReviewCounts>): ReviewCounts => ({
  callsBefore: 0,
  callsAfter: 0,
  userTurns: 1,
  skillManagedInWindow: () => false,
  tools: { skills: true, memory: true },
  ...over,
});

test('a skill review is due when a turn crosses a multiple of the interval, not before and not again in the window', () => {
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 7, callsAfter: 9 }) }), { due: false });
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 7, callsAfter: 11 }) }), { due: true, kinds: { skills: true, memory: false }, reason: 'skills' });
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 9, callsAfter: 10 }) }).due, true);
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 10, callsAfter: 12 }) }), { due: false });
  // A turn of 25 calls crosses two multiples: still one review.
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 0, callsAfter: 25 }) }).due, true);
  // A compression moved the session on: the before count clamps at 0.
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: -3, callsAfter: 4 }) }), { due: false });
});

test('skill_manage in the window, a missing skill tool, or skills.review false skip the skill review', () => {
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 5, callsAfter: 12, skillManagedInWindow: () => true }) }), { due: false });
  assert.deepEqual(reviewDue({ schedule, counts: counts({ callsBefore: 5, callsAfter: 12, tools: { skills: false, memory: true } }) }), { due: false });
  assert.deepEqual(reviewDue({ schedule: { ...schedule, enabled: false }, counts: counts({ callsBefore: 5, callsAfter: 12, userTurns: 10 }) }), { due: false });
});

test('whether skill_manage was called lately is asked only of a turn that crossed an interval', () => {
  let asked = 0;
  const managed = (): boolean => {
    asked += 1;
    return false;
  };
  reviewDue({ schedule, counts: counts({ callsBefore: 7, callsAfter: 9, skillManagedInWindow: managed }) });
  assert.equal(asked, 0);
  reviewDue({ schedule, counts: counts({ callsBefore: 7, callsAfter: 11, skillManagedInWindow: managed }) });
  assert.equal(asked, 1);
});

test('a memory review every memoryInterval user turns; both due make one combined review', () => {
  const s: ReviewSchedule = { ...schedule, memoryInterval: 3 };
  assert.deepEqual(reviewDue({ schedule: s, counts: counts({ userTurns: 2 }) }), { due: false });
  assert.deepEqual(reviewDue({ schedule: s, counts: counts({ userTurns: 3 }) }), { due: true, kinds: { skills: false, memory: true }, reason: 'memory' });
  assert.deepEqual(reviewDue({ schedule: s, counts: counts({ userTurns: 6, callsBefore: 9, callsAfter: 10 }) }), { due: true, kinds: { skills: true, memory: true }, reason: 'skills+memory' });
  assert.deepEqual(reviewDue({ schedule: s, counts: counts({ userTurns: 3, tools: { skills: true, memory: false } }) }), { due: false });
  assert.deepEqual(reviewDue({ schedule: s, counts: counts({ userTurns: 0 }) }), { due: false });
});
