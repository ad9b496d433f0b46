import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { summaryMessage } from '../../../src/agent/compress/summary-message.js';
import { chainModelCalls, reviewDueAfterTurn, type ReviewOptions } from '../../../src/gateway/review/review.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent } from '../store/fixtures.js';

function calls(store: Store, sessionId: string, n: number): void {
  for (let i = 0; i < n; i++) store.recordModelCall({ sessionId, model: 'm', promptTokens: 1, completionTokens: 1, cachedTokens: null });
}

const options: ReviewOptions = {
  schedule: { enabled: true, skillInterval: 10, memoryInterval: 1000 },
  notice: false,
  toolNames: ['skill_manage'],
  agentFor: () => {
    throw new Error('not used');
  },
  countTokens: (text) => text.length,
  memoryTargets: ['memory', 'user'],
  timeoutMs: 1000,
};

test('a compression carries the session\'s model-call count on (a chained session counts its parents); /new starts it over', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-review-chain-'));
  const store = openStore({ path: path.join(dir, 'state.db'), clock: new FakeClock() });
  try {
    const first = store.createSession({ key: 'k' });
    store.appendMessage({ sessionId: first.id, role: 'user', content: 'question' });
    calls(store, first.id, 7);
    // A turn of 5 calls: 3 before a mid-turn compression, 2 after it, in the continued session.
    calls(store, first.id, 3);
    const summary = summaryMessage({ text: 'what happened so far' });
    const next = store.continueSession({
      fromSessionId: first.id,
      messages: [{ role: 'user', content: 'question' }, { role: 'user', content: summary.content }, { role: 'assistant', content: 'tail' }],
      prompt: { text: 'p', layers: [] },
    });
    calls(store, next.id, 2);
    assert.equal(chainModelCalls({ store, sessionId: next.id }), 12);
    const due = reviewDueAfterTurn({ store, sessionId: next.id, turnModelCalls: 5, options, memoryOn: false });
    assert.equal(due.due, true, 'the 10th call of the conversation fell in this turn, across the compression');
    assert.equal(due.modelCalls, 12);
    // /new: a parent, but no summary: the count starts over.
    store.endSession({ sessionId: next.id });
    const fresh = store.createSession({ key: 'k', parentSessionId: next.id });
    store.appendMessage({ sessionId: fresh.id, role: 'user', content: 'hello' });
    calls(store, fresh.id, 1);
    assert.equal(chainModelCalls({ store, sessionId: fresh.id }), 1);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('user turns (the memory review\'s count) go on across a compression, without counting the copies it wrote', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-review-turns-'));
  const store = openStore({ path: path.join(dir, 'state.db'), clock: new FakeClock() });
  try {
    const turn = (sessionId: string, i: number): number => {
      const { row } = store.recordInbound({ event: makeEvent({ messageId: `m${i}` }), sessionKey: 'k' });
      store.appendMessage({ sessionId, inboxId: row.id, role: 'user', content: `question ${i}` });
      store.appendMessage({ sessionId, inboxId: row.id, role: 'assistant', content: `answer ${i}` });
      return row.id;
    };
    const first = store.createSession({ key: 'k' });
    for (let i = 0; i < 4; i++) turn(first.id, i);
    const running = turn(first.id, 4);
    // A mid-turn compression: the head and tail copies carry no inbox id, the running turn's keep its own.
    const next = store.continueSession({
      fromSessionId: first.id,
      messages: [
        { role: 'user', content: 'question 0' },
        { role: 'user', content: summaryMessage({ text: 'so far' }).content },
        { role: 'user', content: 'question 3' },
        { role: 'user', content: 'question 4', inboxId: running },
      ],
      prompt: { text: 'p', layers: [] },
    });
    turn(next.id, 5);
    const memoryOptions: ReviewOptions = { ...options, schedule: { enabled: true, skillInterval: 1000, memoryInterval: 6 }, toolNames: ['memory'] };
    const due = reviewDueAfterTurn({ store, sessionId: next.id, turnModelCalls: 0, options: memoryOptions, memoryOn: true });
    assert.deepEqual(due.due ? due.kinds : undefined, { skills: false, memory: true }, 'six turns in all: the memory review is due');
    assert.equal(store.countUserTurns({ sessionIds: [next.id] }), 2, 'the continued session alone: its own turn and the running one');
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a compressed session that grew past 400 messages still counts its parents (its summary is read from its start)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-review-chain-'));
  const store = openStore({ path: path.join(dir, 'state.db'), clock: new FakeClock() });
  try {
    const first = store.createSession({ key: 'k' });
    store.appendMessage({ sessionId: first.id, role: 'user', content: 'question' });
    calls(store, first.id, 6);
    const summary = summaryMessage({ text: 'what happened so far' });
    const next = store.continueSession({
      fromSessionId: first.id,
      messages: [{ role: 'user', content: 'question' }, { role: 'user', content: summary.content }, { role: 'assistant', content: 'tail' }],
      prompt: { text: 'p', layers: [] },
    });
    for (let i = 0; i < 450; i++) store.appendMessage({ sessionId: next.id, role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i}` });
    calls(store, next.id, 3);
    assert.equal(chainModelCalls({ store, sessionId: next.id }), 9, 'the first session\'s 6 calls still count');
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a skill_manage call among the latest skillInterval model calls holds the skill review back; one further back does not', () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  try {
    const session = store.createSession({ key: 'k' });
    const call = (toolCalls?: { id: string; name: string; arguments: string }[]): void => {
      store.appendMessage({ sessionId: session.id, role: 'assistant', content: '', ...(toolCalls === undefined ? {} : { toolCalls }) });
      calls(store, session.id, 1);
    };
    call([{ id: 'c0', name: 'skill_manage', arguments: '{"action":"create"}' }]);
    for (let i = 0; i < 8; i++) call();
    call([{ id: 'c9', name: 'read_file', arguments: '{}' }]);
    // The 10th call: the skill_manage was the 10th-newest assistant message, inside the window.
    assert.equal(reviewDueAfterTurn({ store, sessionId: session.id, turnModelCalls: 1, options, memoryOn: false }).due, false);
    for (let i = 0; i < 10; i++) call();
    // The 20th: the window of the latest 10 holds no skill_manage.
    assert.equal(reviewDueAfterTurn({ store, sessionId: session.id, turnModelCalls: 1, options, memoryOn: false }).due, true);
  } finally {
    store.close();
  }
});
