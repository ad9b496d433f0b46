import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { SEARCH_INDEX_BATCH } from '../../../src/store/search-index.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from './fixtures.js';

/** A store with its raw connection (to look at the queue and check the index against the messages). */
function opened(params: { file?: string } = {}): { store: Store; db: Database.Database } {
  let raw: Database.Database | undefined;
  const store = openStore({ path: params.file ?? ':memory:', clock: new FakeClock(), configure: (db) => (raw = db) });
  if (raw === undefined) throw new Error('configure was not called');
  return { store, db: raw };
}

function queued(db: Database.Database): number {
  return db.prepare<[], number>('SELECT count(*) FROM messages_fts_pending').pluck().get() ?? -1;
}

function indexed(db: Database.Database): number {
  // The index's own row count (the docsize shadow table holds one row per indexed document).
  return db.prepare<[], number>('SELECT count(*) FROM messages_fts_docsize').pluck().get() ?? -1;
}

/** FTS5's integrity check against the content table (rank 1): throws when the index and the messages disagree. */
function checkIndex(db: Database.Database): void {
  db.prepare("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)").run();
}

describe('the search index, written in batches', () => {
  test('new messages wait in the queue, a search indexes them first, and a full batch is indexed without one', () => {
    const { store, db } = opened();
    const session = store.createSession({ key: 'k' }).id;
    store.appendMessage({ sessionId: session, role: 'user', content: 'where is the lighthouse' });
    assert.equal(queued(db), 1);
    assert.equal(indexed(db), 0);
    assert.equal(store.search({ query: 'lighthouse', limit: 5 }).length, 1, 'a search sees the message stored just before it');
    assert.equal(queued(db), 0);
    checkIndex(db);
    for (let i = 0; i < SEARCH_INDEX_BATCH - 1; i += 1) store.appendMessage({ sessionId: session, role: 'user', content: `note ${i} about tides` });
    assert.equal(queued(db), SEARCH_INDEX_BATCH - 1);
    store.appendMessage({ sessionId: session, role: 'user', content: 'the last note of the batch' });
    assert.equal(queued(db), 0, 'the full batch went into the index');
    assert.equal(indexed(db), SEARCH_INDEX_BATCH + 1);
    checkIndex(db);
    store.close();
  });

  test('a queued message deleted before it was indexed is never found, and an indexed one leaves the index', () => {
    const { store, db } = opened();
    const session = store.createSession({ key: 'k' }).id;
    const first = store.recordInbound({ event: makeEvent({ messageId: 'a' }), sessionKey: 'k' }).row.id;
    const second = store.recordInbound({ event: makeEvent({ messageId: 'b' }), sessionKey: 'k' }).row.id;
    store.appendMessage({ sessionId: session, inboxId: first, role: 'user', content: 'indexed walrus' });
    assert.equal(store.search({ query: 'walrus', limit: 5 }).length, 1);
    store.appendMessage({ sessionId: session, inboxId: second, role: 'user', content: 'queued walrus' });
    assert.equal(store.deleteTurnMessages({ inboxId: second }), 1);
    assert.equal(queued(db), 0, 'the deleted row left the queue');
    assert.equal(store.deleteTurnMessages({ inboxId: first }), 1);
    assert.deepEqual(store.search({ query: 'walrus', limit: 5 }), []);
    assert.equal(indexed(db), 0);
    checkIndex(db);
    store.close();
  });

  test('deleting a session (the cascade) and rewriting a message keep the index and the messages in step', () => {
    const { store, db } = opened();
    const keep = store.createSession({ key: 'keep' }).id;
    store.appendMessage({ sessionId: keep, role: 'user', content: 'an indexed heron' });
    store.search({ query: 'heron', limit: 1 });
    store.appendMessage({ sessionId: keep, role: 'user', content: 'a queued heron' });
    // A rewrite (the history scrub does this) of an indexed row and of a queued one.
    db.prepare("UPDATE messages SET content = replace(content, 'heron', 'egret')").run();
    assert.equal(queued(db), 1, 'the queued row stays queued and is indexed with its new text');
    assert.deepEqual(store.search({ query: 'heron', limit: 5 }), []);
    assert.equal(store.search({ query: 'egret', limit: 5 }).length, 2);
    checkIndex(db);
    const gone = store.createSession({ key: 'gone' }).id;
    store.appendMessage({ sessionId: gone, role: 'user', content: 'an indexed crane' });
    store.search({ query: 'crane', limit: 1 });
    store.appendMessage({ sessionId: gone, role: 'user', content: 'a queued crane' });
    db.prepare('DELETE FROM sessions WHERE id = ?').run(gone);
    assert.deepEqual(store.search({ query: 'crane', limit: 5 }), []);
    checkIndex(db);
    store.close();
  });

  test('hiding messages (/undo) does not rewrite their index entries; hidden ones are still never found', () => {
    const { store, db } = opened();
    const session = store.createSession({ key: 'k' }).id;
    const turn = store.recordInbound({ event: makeEvent(), sessionKey: 'k' }).row.id;
    const message = store.appendMessage({ sessionId: session, role: 'user', content: 'an otter story' });
    store.search({ query: 'otter', limit: 1 });
    const segments = db.prepare<[], number>('SELECT count(*) FROM messages_fts_data').pluck().get();
    store.hideMessages({ sessionId: session, fromMessageId: message.id, hiddenBy: turn });
    assert.equal(db.prepare<[], number>('SELECT count(*) FROM messages_fts_data').pluck().get(), segments, 'no index write for a hide');
    assert.deepEqual(store.search({ query: 'otter', limit: 5 }), []);
    checkIndex(db);
    store.close();
  });

  test('what a run left queued is indexed by the next one; closing indexes what this connection queued', () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const file = path.join(dir, 'state.db');
      const first = opened({ file });
      const session = first.store.createSession({ key: 'k' }).id;
      first.store.appendMessage({ sessionId: session, role: 'user', content: 'a puffin before the restart' });
      first.store.close();
      const second = opened({ file });
      assert.equal(queued(second.db), 0, 'close indexed the queue');
      // A crash leaves the queue as it is: the queued row is stored, and a later search indexes it.
      second.db.prepare('INSERT INTO messages_fts_pending (id) SELECT id FROM messages').run();
      second.db.prepare("INSERT INTO messages_fts (messages_fts, rowid, content) SELECT 'delete', id, content FROM messages").run();
      second.store.close();
      const third = opened({ file });
      assert.equal(queued(third.db), 1);
      assert.equal(third.store.search({ query: 'puffin', limit: 5 }).length, 1);
      checkIndex(third.db);
      third.store.close();
    } finally {
      cleanup();
    }
  });
});
