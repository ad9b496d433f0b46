import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rankSessions, scoreCandidates } from '../../../src/store/search-rank.js';
import { SEARCH_CANDIDATES } from '../../../src/store/session-search.js';
import { queryTerms } from '../../../src/store/search-terms.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';

/** A store with three ended sessions about different things and an open one. */
function seeded(): { store: Store; clock: FakeClock; ids: Record<'budget' | 'trip' | 'budgetAgain' | 'current', string> } {
  const clock = new FakeClock();
  const store = openStore({ path: ':memory:', clock });
  const add = (key: string, title: string, texts: string[]): string => {
    const id = store.createSession({ key, title }).id;
    texts.forEach((content, i) => store.appendMessage({ sessionId: id, role: i % 2 === 0 ? 'user' : 'assistant', content }));
    clock.advance(60_000);
    return id;
  };
  const budget = add('p:slack:C1', 'budget', ['Hello there', 'Please draft the quarterly budget report', 'Here it is', 'Thanks']);
  const trip = add('p:telegram:42', 'trip', ['Book a train to Porto', 'Booked the 9:05 train']);
  const budgetAgain = add('p:email:me', 'budget again', ['budget budget budget: the budget is final', 'Good', 'The budget for Porto too']);
  for (const id of [budget, trip, budgetAgain]) store.endSession({ sessionId: id });
  const current = add('p:telegram:42', 'now', ['What did we decide about the budget?']);
  return { store, clock, ids: { budget, trip, budgetAgain, current } };
}

describe('store searchSessions', () => {
  test('groups matches by session, best session first, the current session left out', () => {
    const { store, ids } = seeded();
    const result = store.searchSessions({ query: 'budget', sessions: 3, matchesPerSession: 3, excludeSessionId: ids.current });
    assert.deepEqual(result.groups.map((g) => g.session.id), [ids.budgetAgain, ids.budget], 'the session saying budget most comes first; the trip never matched');
    assert.deepEqual(result.groups.map((g) => g.hits), [2, 1]);
    assert.equal(result.groups[0]?.session.title, 'budget again');
    assert.equal(result.groups[0]?.session.key, 'p:email:me');
    assert.equal(result.candidates, 3);
    assert.equal(result.truncated, false);
    const all = store.searchSessions({ query: 'budget', sessions: 5, matchesPerSession: 3 });
    assert.ok(all.groups.some((g) => g.session.id === ids.current), 'without an exclusion the current session matches too');
    store.close();
  });

  test("the asking session's delegate_task children are left out with it; another session's children, and a compression's successor, are not", () => {
    const { store, ids } = seeded();
    const child = store.createSession({ key: 'p:telegram:42:delegate=abc', parentSessionId: ids.current, title: 'budget child' });
    store.appendMessage({ sessionId: child.id, role: 'assistant', content: 'the budget numbers, straight from the child' });
    store.endSession({ sessionId: child.id });
    const found = (exclude: string): string[] => store.searchSessions({ query: 'budget', sessions: 10, matchesPerSession: 1, excludeSessionId: exclude }).groups.map((g) => g.session.id);
    assert.ok(!found(ids.current).includes(child.id), "the current session's own child was found");
    assert.ok(found(ids.trip).includes(child.id), 'a child of another session is a past conversation like any');
    assert.ok(found(ids.trip).includes(ids.current));
    // A successor under the same key (a compression's) has the session as its parent but is not its child.
    const successor = store.createSession({ key: 'p:slack:C1', parentSessionId: ids.budget, title: 'budget successor' });
    store.appendMessage({ sessionId: successor.id, role: 'user', content: 'more budget' });
    assert.ok(found(ids.budget).includes(successor.id));
    store.close();
  });

  test('each match comes with its neighbours; matches of a session are in conversation order', () => {
    const { store, ids } = seeded();
    const [budget] = store.searchSessions({ query: 'quarterly', sessions: 3, matchesPerSession: 3 }).groups;
    assert.equal(budget?.session.id, ids.budget);
    assert.equal(budget?.matches[0]?.message.content, 'Please draft the quarterly budget report');
    assert.equal(budget?.matches[0]?.before?.content, 'Hello there');
    assert.equal(budget?.matches[0]?.after?.content, 'Here it is');
    const [again] = store.searchSessions({ query: 'budget', sessions: 1, matchesPerSession: 5, excludeSessionId: ids.current }).groups;
    assert.deepEqual(again?.matches.map((m) => m.message.content), ['budget budget budget: the budget is final', 'The budget for Porto too']);
    assert.equal(again?.matches[0]?.before, null, 'the first message has nothing before it');
    assert.equal(again?.matches[1]?.after, null, 'the last has nothing after it');
    store.close();
  });

  test('caps: sessions and matches per session', () => {
    const { store, ids } = seeded();
    const one = store.searchSessions({ query: 'budget', sessions: 1, matchesPerSession: 1, excludeSessionId: ids.current });
    assert.equal(one.groups.length, 1);
    assert.equal(one.groups[0]?.matches.length, 1);
    assert.equal(one.groups[0]?.matches[0]?.message.content, 'budget budget budget: the budget is final', 'the best match is the one kept');
    assert.equal(one.groups[0]?.hits, 2, 'hits still counts every match among the candidates');
    assert.deepEqual(store.searchSessions({ query: 'budget', sessions: 0, matchesPerSession: 1 }).groups, []);
    store.close();
  });

  test('FTS5 syntax works, bad syntax falls back to plain words, empty queries find nothing', () => {
    const { store, ids } = seeded();
    const porto = store.searchSessions({ query: 'porto AND train', sessions: 3, matchesPerSession: 3 });
    assert.deepEqual(porto.groups.map((g) => g.session.id), [ids.trip]);
    assert.deepEqual(store.searchSessions({ query: 'quart*', sessions: 3, matchesPerSession: 3 }).groups.map((g) => g.session.id), [ids.budget]);
    for (const query of ['budget"', 'NEAR(', 'col:budget', '(((', 'AND']) {
      assert.doesNotThrow(() => store.searchSessions({ query, sessions: 3, matchesPerSession: 3 }), query);
    }
    assert.equal(store.searchSessions({ query: 'budget"', sessions: 5, matchesPerSession: 1 }).groups.length, 3);
    // A NUL ends an FTS5 string early ("unterminated string" even for the quoted fallback): it is a word break.
    for (const query of ['\u0000', 'budget\u0000', '"budget\u0000"', 'NEAR(budget\u0000 report)']) {
      assert.doesNotThrow(() => store.searchSessions({ query, sessions: 3, matchesPerSession: 3 }), JSON.stringify(query));
      assert.doesNotThrow(() => store.search({ query, limit: 3 }), JSON.stringify(query));
    }
    assert.equal(store.searchSessions({ query: 'budget\u0000', sessions: 5, matchesPerSession: 1 }).groups.length, 3);
    assert.deepEqual(store.searchSessions({ query: '  ', sessions: 3, matchesPerSession: 3 }).groups, []);
    assert.deepEqual(store.searchSessions({ query: 'submarine', sessions: 3, matchesPerSession: 3 }).groups, []);
    store.close();
  });

  test('only the newest candidates are ranked; older pages are read while they come from too few sessions', () => {
    const clock = new FakeClock();
    const store = openStore({ path: ':memory:', clock });
    const old = store.createSession({ key: 'p:sms:1', title: 'old' }).id;
    store.appendMessage({ sessionId: old, role: 'user', content: 'zebra zebra zebra zebra in the oldest session' });
    const big = store.createSession({ key: 'p:sms:2', title: 'big' }).id;
    for (let i = 0; i < SEARCH_CANDIDATES + 100; i += 1) store.appendMessage({ sessionId: big, role: 'user', content: `zebra number ${i}` });
    const wide = store.searchSessions({ query: 'zebra', sessions: 2, matchesPerSession: 1 });
    assert.deepEqual(wide.groups.map((g) => g.session.id), [old, big], 'the old session was reached through a second page, and ranks first');
    assert.equal(wide.truncated, false);
    assert.equal(wide.candidates, SEARCH_CANDIDATES + 101);
    const narrow = store.searchSessions({ query: 'zebra', sessions: 1, matchesPerSession: 1 });
    assert.deepEqual(narrow.groups.map((g) => g.session.id), [big], 'one session asked: the first page is enough and the old one is never read');
    assert.equal(narrow.truncated, true);
    assert.equal(narrow.candidates, SEARCH_CANDIDATES);
    store.close();
  });
});

describe('ranking', () => {
  test('query terms: operators, column names and syntax are not words; diacritics and case are folded', () => {
    assert.deepEqual(queryTerms({ query: 'Café AND "Über alles" OR deploy* NOT x col:budget' }), [
      { text: 'cafe', prefix: false },
      { text: 'uber', prefix: false },
      { text: 'alles', prefix: false },
      { text: 'deploy', prefix: true },
      { text: 'x', prefix: false },
      { text: 'budget', prefix: false },
    ]);
  });

  test('BM25 over the candidates: more occurrences in a shorter text score higher; a rare term outweighs a common one', () => {
    const terms = queryTerms({ query: 'apple OR kiwi' });
    const scored = scoreCandidates({
      terms,
      candidates: [
        { id: 1, sessionId: 'a', head: 'apple apple pie', chars: 15 },
        { id: 2, sessionId: 'b', head: 'apple and a long list of other words that dilute it', chars: 52 },
        { id: 3, sessionId: 'c', head: 'kiwi and a long list of other words that dilute it', chars: 51 },
        { id: 4, sessionId: 'd', head: 'apple again with words', chars: 22 },
      ],
    });
    const score = (id: number): number => scored.find((s) => s.id === id)?.score ?? 0;
    assert.ok(score(1) > score(2));
    assert.ok(score(3) > score(2), 'kiwi (in one candidate of four) weighs more than apple (in three)');
    const order = rankSessions({ scored }).map((s) => s.sessionId);
    assert.equal(order.at(-1), 'b');
  });

  test('ties go to the session with more matches, then the newest', () => {
    const ranked = rankSessions({
      scored: [
        { id: 1, sessionId: 'old', head: '', chars: 0, score: 1 },
        { id: 2, sessionId: 'many', head: '', chars: 0, score: 1 },
        { id: 3, sessionId: 'many', head: '', chars: 0, score: 0.5 },
        { id: 4, sessionId: 'new', head: '', chars: 0, score: 1 },
      ],
    });
    assert.deepEqual(ranked.map((s) => s.sessionId), ['many', 'new', 'old']);
  });
});
