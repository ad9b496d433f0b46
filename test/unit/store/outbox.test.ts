import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent } from './fixtures.js';

/** A store with one journaled turn. */
function withTurn(clock: FakeClock): { store: Store; inboxId: number } {
  const store = openStore({ path: ':memory:', clock });
  const inboxId = store.recordInbound({ event: makeEvent(), sessionKey: 'k' }).row.id;
  return { store, inboxId };
}

describe('store outbox', () => {
  test('recordOutbound inserts, then updates the same (inboxId, seq) in place', async () => {
    const clock = new FakeClock(1_000);
    const { store, inboxId } = withTurn(clock);
    const base = { inboxId, platform: 'telegram', chatId: 'chat-1', platformMessageId: '501', state: 'open' } as const;
    store.recordOutbound({ ...base, seq: 0, text: 'Hel' });
    await clock.advance(1_000);
    store.recordOutbound({ ...base, seq: 0, text: 'Hello, wor' });
    store.recordOutbound({ ...base, seq: 1, platformMessageId: '502', text: 'ld' });

    assert.deepEqual(store.outboundFor({ inboxId }), [
      { ...base, seq: 0, text: 'Hello, wor', updatedAt: 2_000 },
      { ...base, seq: 1, platformMessageId: '502', text: 'ld', updatedAt: 2_000 },
    ]);
    assert.deepEqual(store.outboundFor({ inboxId: inboxId + 1 }), []);
    store.close();
  });

  test('completeTurn finalizes every outbox row of the turn and marks the inbox row done', async () => {
    const clock = new FakeClock(1_000);
    const { store, inboxId } = withTurn(clock);
    const other = store.recordInbound({ event: makeEvent({ messageId: 'm2' }), sessionKey: 'k' }).row.id;
    const base = { platform: 'telegram', chatId: 'chat-1', state: 'open' } as const;
    store.recordOutbound({ ...base, inboxId, seq: 0, platformMessageId: '1', text: 'part one' });
    store.recordOutbound({ ...base, inboxId, seq: 1, platformMessageId: '2', text: 'part two' });
    store.recordOutbound({ ...base, inboxId: other, seq: 0, platformMessageId: '3', text: 'other turn' });
    await clock.advance(5_000);
    store.completeTurn({ inboxId });

    assert.deepEqual(store.outboundFor({ inboxId }).map((r) => [r.state, r.updatedAt]), [
      ['final', 6_000],
      ['final', 6_000],
    ]);
    assert.equal(store.outboundFor({ inboxId: other })[0]?.state, 'open', 'other turns are untouched');
    assert.equal(store.getInbound({ inboxId })?.state, 'done');
    assert.deepEqual(store.pendingInbound().map((r) => r.id), [other]);
    store.close();
  });

  test('completeTurn for an unknown turn changes nothing and throws', () => {
    const { store, inboxId } = withTurn(new FakeClock());
    assert.throws(() => store.completeTurn({ inboxId: inboxId + 99 }), /no such row/);
    assert.equal(store.getInbound({ inboxId })?.state, 'received');
    store.close();
  });

  test('an outbox row must belong to a journaled turn', () => {
    const { store, inboxId } = withTurn(new FakeClock());
    const row = { inboxId: inboxId + 99, seq: 0, platform: 't', chatId: 'c', platformMessageId: '1', text: 'x', state: 'open' } as const;
    assert.throws(() => store.recordOutbound(row), /FOREIGN KEY/);
    store.close();
  });
});
