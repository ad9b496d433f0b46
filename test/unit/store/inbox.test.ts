import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { StoreDataError } from '../../../src/store/errors.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from './fixtures.js';

describe('store inbox journal', () => {
  test('the same platform + message id is journaled once', async () => {
    const clock = new FakeClock();
    const store = openStore({ path: ':memory:', clock });
    const first = store.recordInbound({ event: makeEvent({ text: 'first' }), sessionKey: 'p:telegram:chat-1' });
    await clock.advance(1000);
    const again = store.recordInbound({ event: makeEvent({ text: 'redelivered' }), sessionKey: 'p:telegram:chat-1' });

    assert.equal(first.inserted, true);
    assert.equal(again.inserted, false);
    assert.equal(again.row.id, first.row.id);
    assert.equal(again.row.event.text, 'first', 'the redelivery does not overwrite the journaled event');
    assert.equal(store.pendingInbound().length, 1);
    store.close();
  });

  test('the same message id on another platform is a different message', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const a = store.recordInbound({ event: makeEvent({ platform: 'telegram' }), sessionKey: 'k1' });
    const b = store.recordInbound({ event: makeEvent({ platform: 'slack' }), sessionKey: 'k2' });
    assert.equal(b.inserted, true);
    assert.notEqual(a.row.id, b.row.id);
    assert.deepEqual(store.pendingInbound().map((r) => r.platform), ['telegram', 'slack']);
    store.close();
  });

  test('a journaled row round-trips its event, key and timestamps', () => {
    const clock = new FakeClock(1_700_000_123_000);
    const store = openStore({ path: ':memory:', clock });
    const event = makeEvent({
      chat: { id: 'C1', kind: 'group', threadId: 'T9' },
      media: [{ path: '/cache/a.png', kind: 'image', mimeType: 'image/png', sizeBytes: 12 }],
      replyToId: 'm0',
      mentioned: true,
      raw: { update_id: 7, nested: [1, 'two'] },
    });
    const { row } = store.recordInbound({ event, sessionKey: 'work:slack:C1:T9:user-1' });
    assert.deepEqual(row, {
      id: row.id,
      platform: 'telegram',
      messageId: 'm1',
      sessionKey: 'work:slack:C1:T9:user-1',
      state: 'received',
      event,
      attempts: 0,
      receivedAt: 1_700_000_123_000,
      updatedAt: 1_700_000_123_000,
    });
    assert.deepEqual(store.getInbound({ inboxId: row.id }), row);
    assert.equal(store.getInbound({ inboxId: row.id + 100 }), undefined);
    store.close();
  });

  test('state moves received → processing → done; pending lists not-done rows oldest first', async () => {
    const clock = new FakeClock();
    const store = openStore({ path: ':memory:', clock });
    const ids: number[] = [];
    for (const messageId of ['a', 'b', 'c']) {
      await clock.advance(10);
      ids.push(store.recordInbound({ event: makeEvent({ messageId }), sessionKey: 'k' }).row.id);
    }
    const [a, b, c] = ids as [number, number, number];
    await clock.advance(500);
    store.setInboxState({ inboxId: b, state: 'processing' });
    store.setInboxState({ inboxId: a, state: 'done' });

    const pending = store.pendingInbound();
    assert.deepEqual(pending.map((r) => [r.id, r.state]), [
      [b, 'processing'],
      [c, 'received'],
    ]);
    assert.equal(pending[0]?.updatedAt, clock.now(), 'the state change stamps updatedAt');
    assert.equal(pending[0]?.receivedAt, clock.now() - 510);
    assert.equal(store.getInbound({ inboxId: a })?.state, 'done');
    store.close();
  });

  test('setting the state of an unknown row throws', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    assert.throws(() => store.setInboxState({ inboxId: 12345, state: 'done' }), /no such row/);
    store.close();
  });

  test('an invalid event is refused before it is journaled', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    assert.throws(() => store.recordInbound({ event: makeEvent({ messageId: '' }), sessionKey: 'k' }));
    assert.deepEqual(store.pendingInbound(), []);
    store.close();
  });

  test('each move to processing counts an attempt', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const { row } = store.recordInbound({ event: makeEvent({ messageId: 'tries' }), sessionKey: 'k' });
    assert.equal(row.attempts, 0);
    store.setInboxState({ inboxId: row.id, state: 'processing' });
    store.setInboxState({ inboxId: row.id, state: 'processing' });
    store.setInboxState({ inboxId: row.id, state: 'received' });
    assert.equal(store.getInbound({ inboxId: row.id })?.attempts, 2);
    store.close();
  });

  test('a damaged event_json is reported with its row id', () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const file = path.join(dir, 'state.db');
      const store = openStore({ path: file, clock: new FakeClock() });
      const { row } = store.recordInbound({ event: makeEvent(), sessionKey: 'k' });
      const raw = new Database(file);
      raw.prepare('UPDATE inbox SET event_json = ? WHERE id = ?').run('{"platform":"telegram"}', row.id);
      raw.close();
      assert.throws(
        () => store.getInbound({ inboxId: row.id }),
        (error: unknown) => error instanceof StoreDataError && error.table === 'inbox' && error.rowId === String(row.id),
      );
      // Replay skips it (logged) instead of refusing to start, and still returns the healthy rows.
      const healthy = store.recordInbound({ event: makeEvent({ messageId: 'healthy' }), sessionKey: 'k' }).row;
      assert.deepEqual(store.pendingInbound().map((r) => r.id), [healthy.id]);
      store.close();
    } finally {
      cleanup();
    }
  });
});
