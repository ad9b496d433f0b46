import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe('session prompts and model usage (migration 4)', () => {
  test('a session keeps the exact prompt stored with it; other sessions have none', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const a = store.createSession({ key: 'k' });
    const b = store.createSession({ key: 'k2' });
    const text = 'You are Hermes.\n\n§ memory\n\u00e9 ✓';
    store.setSessionPrompt({ sessionId: a.id, prompt: { text, layers: [{ name: 'identity', chars: 15 }, { name: 'memory', chars: 8 }] } });
    assert.deepEqual(store.sessionPrompt({ sessionId: a.id }), { text, layers: [{ name: 'identity', chars: 15 }, { name: 'memory', chars: 8 }] });
    assert.equal(store.sessionPrompt({ sessionId: b.id }), undefined);
    assert.throws(() => store.setSessionPrompt({ sessionId: 'nope', prompt: { text: 'x', layers: [] } }), /no such session/);
    store.close();
  });

  test('usage adds up per session; calls without reported usage are counted apart', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const a = store.createSession({ key: 'k' });
    assert.deepEqual(store.sessionUsage({ sessionId: a.id }), { calls: 0, unreported: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0 });
    store.recordModelCall({ sessionId: a.id, model: 'm', promptTokens: 100, completionTokens: 20, cachedTokens: 64 });
    store.recordModelCall({ sessionId: a.id, model: 'm', promptTokens: 120, completionTokens: 5, cachedTokens: null });
    store.recordModelCall({ sessionId: a.id, model: 'm', promptTokens: null, completionTokens: null, cachedTokens: null });
    assert.deepEqual(store.sessionUsage({ sessionId: a.id }), { calls: 3, unreported: 1, promptTokens: 220, completionTokens: 25, cachedTokens: 64 });
    store.close();
  });
});
