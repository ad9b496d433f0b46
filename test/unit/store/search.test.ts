import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SEARCH_CANDIDATES } from '../../../src/store/search-candidates.js';
import { quoteTerms } from '../../../src/store/search.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent } from './fixtures.js';

/** A store with a little history in two sessions. */
function seeded(): { store: Store; work: string; home: string; turn: number } {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  const work = store.createSession({ key: 'work:slack:C1' }).id;
  const home = store.createSession({ key: 'personal:telegram:42' }).id;
  const turn = store.recordInbound({ event: makeEvent(), sessionKey: 'personal:telegram:42' }).row.id;
  store.appendMessage({ sessionId: work, role: 'user', content: 'Please draft the quarterly budget report' });
  store.appendMessage({ sessionId: work, role: 'assistant', content: 'Here is the budget, budget, budget overview' });
  store.appendMessage({ sessionId: home, inboxId: turn, role: 'user', content: 'Book a table at the café for Friday' });
  return { store, work, home, turn };
}

describe('store search', () => {
  test('finds words across sessions, best match first, with marked snippets', () => {
    const { store, work } = seeded();
    const hits = store.search({ query: 'budget', limit: 10 });
    assert.equal(hits.length, 2);
    assert.equal(hits[0]?.role, 'assistant', 'bm25 ranks the message that says "budget" three times first');
    assert.equal(hits[0]?.sessionId, work);
    assert.equal(hits[0]?.sessionKey, 'work:slack:C1');
    assert.match(hits[0]?.snippet ?? '', /\[budget\]/);
    assert.equal(hits[1]?.snippet, 'Please draft the quarterly [budget] report');
    assert.equal(store.search({ query: 'budget', limit: 1 }).length, 1);
    store.close();
  });

  test('FTS5 syntax works; plain words and diacritics match', () => {
    const { store } = seeded();
    assert.equal(store.search({ query: 'budget AND quarterly', limit: 10 }).length, 1);
    assert.equal(store.search({ query: 'quart*', limit: 10 }).length, 1);
    assert.equal(store.search({ query: 'cafe', limit: 10 })[0]?.snippet, 'Book a table at the [café] for Friday');
    assert.deepEqual(store.search({ query: 'submarine', limit: 10 }), []);
    store.close();
  });

  test('invalid FTS5 syntax falls back to quoted words instead of throwing', () => {
    const { store } = seeded();
    for (const query of ['budget"', 'AND', 'NEAR(', 'budget OR', 'col:budget', '-budget', '(((']) {
      assert.doesNotThrow(() => store.search({ query, limit: 10 }), `query ${query}`);
    }
    assert.equal(store.search({ query: 'budget"', limit: 10 }).length, 2, 'the stray quote is dropped by the tokenizer');
    assert.equal(store.search({ query: '-budget', limit: 10 }).length, 2);
    store.close();
  });

  test('empty queries and zero limits return nothing', () => {
    const { store } = seeded();
    assert.deepEqual(store.search({ query: '', limit: 10 }), []);
    assert.deepEqual(store.search({ query: '  \t ', limit: 10 }), []);
    assert.deepEqual(store.search({ query: 'budget', limit: 0 }), []);
    store.close();
  });

  test('deleted turn messages disappear from the index', () => {
    const { store, turn } = seeded();
    assert.equal(store.search({ query: 'Friday', limit: 10 }).length, 1);
    store.deleteTurnMessages({ inboxId: turn });
    assert.deepEqual(store.search({ query: 'Friday', limit: 10 }), []);
    assert.equal(store.search({ query: 'budget', limit: 10 }).length, 2);
    store.close();
  });

  test('bounded like session_search: only the newest matches are ranked, best of them first', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const old = store.createSession({ key: 'work:slack:C1' }).id;
    const recent = store.createSession({ key: 'work:slack:C2' }).id;
    // The best bm25 match over everything, but older than the newest SEARCH_CANDIDATES matches.
    store.appendMessage({ sessionId: old, role: 'user', content: 'invoice invoice invoice invoice' });
    for (let i = 0; i < SEARCH_CANDIDATES; i += 1) {
      store.appendMessage({ sessionId: recent, role: 'user', content: `note ${i}: the invoice went out with a long tail of other words ${i}` });
    }
    const best = store.appendMessage({ sessionId: recent, role: 'assistant', content: 'invoice and invoice again' });
    const hits = store.search({ query: 'invoice', limit: 5 });
    assert.equal(hits.length, 5);
    assert.equal(hits[0]?.messageId, best.id, 'the best of the newest matches comes first');
    assert.match(hits[0]?.snippet ?? '', /^\[invoice\] and \[invoice\] again$/);
    assert.ok(hits.every((hit) => hit.sessionId === recent), 'the old match beyond the bound is not ranked');
    assert.equal(store.search({ query: 'invoice"', limit: 1 })[0]?.messageId, best.id, 'a syntax error falls back to the words, snippets too');
    store.close();
  });

  test('snippets: a window of words around the first match, every match marked, … where cut', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const id = store.createSession({ key: 'work:slack:C1' }).id;
    const filler = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
    store.appendMessage({ sessionId: id, role: 'tool', content: `${filler} the Needle, then needles and a needle. ${filler}` });
    const [hit] = store.search({ query: 'needle', limit: 1 });
    assert.equal(hit?.snippet, '…word597 word598 word599 the [Needle], then needles and a [needle]. word0 word1 word2 word3 word4 word5…');
    assert.match(store.search({ query: 'needle*', limit: 1 })[0]?.snippet ?? '', /\[Needle\], then \[needles\] and a \[needle\]/);
    store.close();
  });

  test('quoteTerms makes each term a phrase and escapes quotes', () => {
    assert.equal(quoteTerms({ query: ' foo"  AND\tbar ' }), '"foo""" "AND" "bar"');
    assert.equal(quoteTerms({ query: '' }), '');
  });
});
