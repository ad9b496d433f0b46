import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { summaryMessage } from '../../../src/agent/compress/summary-message.js';
import { chainModelCalls, reviewDueAfterTurn, type ReviewOptions } from '../../../src/gateway/background-review.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';

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
