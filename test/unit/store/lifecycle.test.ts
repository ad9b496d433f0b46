import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { UserFacingError } from '../../../src/core/errors.js';
import { StoreClosedError } from '../../../src/store/errors.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { openDatabase } from '../../../src/store/connection.js';
import { silentStoreLogger } from '../../../src/store/store-logger.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from './fixtures.js';

describe('store lifecycle', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir()));
  afterEach(() => cleanup());

  test('a file store runs in WAL mode', () => {
    const file = path.join(dir, 'state.db');
    const store = openStore({ path: file, clock: new FakeClock() });
    store.recordInbound({ event: makeEvent(), sessionKey: 'k' });
    const probe = new Database(file, { readonly: true });
    assert.equal(probe.pragma('journal_mode', { simple: true }), 'wal');
    probe.close();
    assert.ok(fs.existsSync(`${file}-wal`), 'the commit went to the write-ahead log');
    store.close();
  });

  test('the connection keeps SQLite\'s 2 MB page cache, not the 16 MB better-sqlite3 builds it with', () => {
    // better-sqlite3's default, on a connection the store did not set up:
    const plain = new Database(':memory:');
    assert.equal(plain.pragma('cache_size', { simple: true }), -16000);
    plain.close();
    const db = openDatabase({ path: path.join(dir, 'state.db'), logger: silentStoreLogger });
    assert.equal(db.pragma('cache_size', { simple: true }), -2000);
    db.close();
  });

  test('close checkpoints the WAL, is idempotent, and later calls fail clearly', () => {
    const file = path.join(dir, 'state.db');
    const store = openStore({ path: file, clock: new FakeClock() });
    store.setCursor({ name: 'c', value: 'v' });
    store.close();
    store.close();
    const walSize = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
    assert.equal(walSize, 0, 'nothing is left in the WAL after close');
    assert.throws(() => store.getCursor({ name: 'c' }), (error: unknown) => {
      return error instanceof StoreClosedError && error.message.includes(file);
    });
    assert.throws(() => store.pendingInbound(), StoreClosedError);
  });

  test('cursors: missing is undefined, set overwrites', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    assert.equal(store.getCursor({ name: 'telegram.offset' }), undefined);
    store.setCursor({ name: 'telegram.offset', value: '1' });
    store.setCursor({ name: 'telegram.offset', value: '2' });
    store.setCursor({ name: 'slack.menu', value: 'abc' });
    assert.equal(store.getCursor({ name: 'telegram.offset' }), '2');
    assert.equal(store.getCursor({ name: 'slack.menu' }), 'abc');
    store.close();
  });

  test('an edited message is re-indexed by the update trigger', () => {
    const file = path.join(dir, 'state.db');
    const store = openStore({ path: file, clock: new FakeClock() });
    const session = store.createSession({ key: 'k' });
    const message = store.appendMessage({ sessionId: session.id, role: 'user', content: 'apples' });
    const raw = new Database(file);
    raw.prepare('UPDATE messages SET content = ? WHERE id = ?').run('oranges', message.id);
    raw.close();
    assert.deepEqual(store.search({ query: 'apples', limit: 5 }), []);
    assert.equal(store.search({ query: 'oranges', limit: 5 })[0]?.messageId, message.id);
    store.close();
  });

  test('a path in a missing directory is a UserFacingError', () => {
    const file = path.join(dir, 'no-such-dir', 'state.db');
    assert.throws(
      () => openStore({ path: file, clock: new FakeClock() }),
      (error: unknown) => error instanceof UserFacingError && error.message.includes(file),
    );
  });
});
