import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test('store.together runs several writes as one transaction: its value comes back, and a failure leaves none of them', () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  try {
    const made = store.together(() => {
      const session = store.createSession({ key: 'k1', title: 'one' });
      store.setCursor({ name: 'c', value: 'v1' });
      return session.id;
    });
    assert.equal(store.activeSession({ key: 'k1' })?.id, made);
    assert.equal(store.getCursor({ name: 'c' }), 'v1');
    assert.throws(() =>
      store.together(() => {
        store.createSession({ key: 'k2', title: 'two' });
        store.setCursor({ name: 'c', value: 'v2' });
        throw new Error('step failed');
      }),
    /step failed/);
    assert.equal(store.activeSession({ key: 'k2' }), undefined, 'the session of the failed step was kept');
    assert.equal(store.getCursor({ name: 'c' }), 'v1');
  } finally {
    store.close();
  }
});
