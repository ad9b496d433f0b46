import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe('store sessions', () => {
  test('/new-style lifecycle: end the active session, start a child of it', async () => {
    const clock = new FakeClock(10_000);
    const store = openStore({ path: ':memory:', clock });
    const key = 'work:telegram:chat-1';
    assert.equal(store.activeSession({ key }), undefined);

    const first = store.createSession({ key, title: 'first' });
    assert.deepEqual(store.activeSession({ key }), first);
    assert.match(first.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    await clock.advance(60_000);
    store.endSession({ sessionId: first.id });
    const child = store.createSession({ key, parentSessionId: first.id });

    assert.deepEqual(store.activeSession({ key }), child);
    assert.deepEqual(store.getSession({ sessionId: first.id }), { ...first, endedAt: 70_000 });
    assert.equal(child.parentSessionId, first.id);
    assert.equal(child.title, null);
    assert.equal(child.startedAt, 70_000);
    store.close();
  });

  test('createSession does not end others; the newest open one is active, even within one millisecond', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const a = store.createSession({ key: 'k' });
    const b = store.createSession({ key: 'k' });
    assert.equal(store.activeSession({ key: 'k' })?.id, b.id);
    assert.equal(store.getSession({ sessionId: a.id })?.endedAt, null);
    store.endSession({ sessionId: b.id });
    assert.equal(store.activeSession({ key: 'k' })?.id, a.id, 'the older open session is active again');
    store.close();
  });

  test('ending twice keeps the first end time; unknown ids throw', async () => {
    const clock = new FakeClock(0);
    const store = openStore({ path: ':memory:', clock });
    const s = store.createSession({ key: 'k' });
    await clock.advance(5);
    store.endSession({ sessionId: s.id });
    await clock.advance(5);
    store.endSession({ sessionId: s.id });
    assert.equal(store.getSession({ sessionId: s.id })?.endedAt, 5);
    assert.throws(() => store.endSession({ sessionId: 'nope' }), /no such session/);
    assert.throws(() => store.setSessionTitle({ sessionId: 'nope', title: 'x' }), /no such session/);
    assert.equal(store.getSession({ sessionId: 'nope' }), undefined);
    store.close();
  });

  test('titles, message counts and listing newest first, optionally by key', async () => {
    const clock = new FakeClock(0);
    const store = openStore({ path: ':memory:', clock });
    const a = store.createSession({ key: 'k1' });
    await clock.advance(1);
    const b = store.createSession({ key: 'k2' });
    await clock.advance(1);
    const c = store.createSession({ key: 'k1' });
    store.setSessionTitle({ sessionId: a.id, title: 'Trip planning' });
    store.appendMessage({ sessionId: a.id, role: 'user', content: 'one' });
    store.appendMessage({ sessionId: a.id, role: 'assistant', content: 'two' });

    assert.deepEqual(store.listSessions({ limit: 10 }).map((s) => s.id), [c.id, b.id, a.id]);
    assert.deepEqual(store.listSessions({ limit: 2 }).map((s) => s.id), [c.id, b.id]);
    assert.deepEqual(store.listSessions({ limit: 10, key: 'k1' }).map((s) => s.id), [c.id, a.id]);
    assert.deepEqual(store.listSessions({ limit: 0 }), []);
    const listedA = store.getSession({ sessionId: a.id });
    assert.equal(listedA?.title, 'Trip planning');
    assert.equal(listedA?.messageCount, 2);
    assert.equal(store.getSession({ sessionId: c.id })?.messageCount, 0);
    store.close();
  });

  test('a parent must exist', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    assert.throws(() => store.createSession({ key: 'k', parentSessionId: 'missing' }), /FOREIGN KEY/);
    store.close();
  });
});
