import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate } from '../../../src/store/migrate.js';
import { migrations } from '../../../src/store/migrations.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { silentStoreLogger } from '../../../src/store/store-logger.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from './fixtures.js';

describe('store send intents', () => {
  test('an intent stays until the same seq records its message id; other seqs and turns keep theirs', () => {
    const clock = new FakeClock(5_000);
    const store = openStore({ path: ':memory:', clock });
    const turn = store.recordInbound({ event: makeEvent(), sessionKey: 'k' }).row.id;
    const other = store.recordInbound({ event: makeEvent({ messageId: 'm2' }), sessionKey: 'k' }).row.id;
    const where = { platform: 'telegram', chatId: 'chat-1' };
    store.recordSendIntent({ ...where, inboxId: turn, seq: 0, nonce: 'n0', afterId: 'chat-1:1', text: 'INFL- ▉' });
    store.recordSendIntent({ ...where, inboxId: turn, seq: 1, nonce: 'n1', afterId: null, text: 'more' });
    store.recordSendIntent({ ...where, inboxId: other, seq: 0, nonce: 'n2', afterId: null, text: 'other' });
    assert.deepEqual(store.sendIntentsFor({ inboxId: turn }), [
      { inboxId: turn, seq: 0, ...where, nonce: 'n0', afterId: 'chat-1:1', text: 'INFL- ▉', createdAt: 5_000 },
      { inboxId: turn, seq: 1, ...where, nonce: 'n1', afterId: null, text: 'more', createdAt: 5_000 },
    ]);
    store.recordOutbound({ ...where, inboxId: turn, seq: 0, platformMessageId: '2', text: 'INFL- ▉', state: 'open' });
    assert.deepEqual(store.sendIntentsFor({ inboxId: turn }).map((i) => i.seq), [1], 'recording seq 0 settled its intent only');
    assert.deepEqual(store.sendIntentsFor({ inboxId: other }).map((i) => i.nonce), ['n2']);
    store.close();
  });

  test('a repeated intent for a seq replaces the earlier one; completing the turn drops what is left', async () => {
    const clock = new FakeClock(1_000);
    const store = openStore({ path: ':memory:', clock });
    const turn = store.recordInbound({ event: makeEvent(), sessionKey: 'k' }).row.id;
    const where = { platform: 'slack', chatId: 'C1' };
    store.recordSendIntent({ ...where, inboxId: turn, seq: 0, nonce: 'first', afterId: null, text: 'a' });
    await clock.advance(1_000);
    store.recordSendIntent({ ...where, inboxId: turn, seq: 0, nonce: 'second', afterId: 'C1:1.0', text: 'b' });
    assert.deepEqual(store.sendIntentsFor({ inboxId: turn }).map((i) => [i.nonce, i.afterId, i.text, i.createdAt]), [['second', 'C1:1.0', 'b', 2_000]]);
    store.completeTurn({ inboxId: turn });
    assert.deepEqual(store.sendIntentsFor({ inboxId: turn }), []);
    store.close();
  });

  test('outboundIdsInChat lists every turn\'s message ids in that chat only; pruning a turn removes its intents', async () => {
    const clock = new FakeClock(1_000);
    const store = openStore({ path: ':memory:', clock });
    const a = store.recordInbound({ event: makeEvent(), sessionKey: 'k' }).row.id;
    const b = store.recordInbound({ event: makeEvent({ messageId: 'm2' }), sessionKey: 'k' }).row.id;
    store.recordOutbound({ inboxId: a, seq: 0, platform: 'telegram', chatId: '77', platformMessageId: '10', text: 'x', state: 'final' });
    store.recordOutbound({ inboxId: b, seq: 0, platform: 'telegram', chatId: '77', platformMessageId: '12', text: 'y', state: 'open' });
    store.recordOutbound({ inboxId: b, seq: 1, platform: 'telegram', chatId: '78', platformMessageId: '13', text: 'z', state: 'open' });
    store.recordOutbound({ inboxId: b, seq: 2, platform: 'slack', chatId: '77', platformMessageId: '14', text: 'w', state: 'open' });
    assert.deepEqual(store.outboundIdsInChat({ platform: 'telegram', chatId: '77' }).sort(), ['10', '12']);
    store.recordSendIntent({ inboxId: a, seq: 1, platform: 'telegram', chatId: '77', nonce: 'n', afterId: null, text: 't' });
    store.setInboxState({ inboxId: a, state: 'done' });
    await clock.advance(9_000);
    assert.equal(store.pruneInbound({ before: 5_000 }), 1);
    assert.deepEqual(store.sendIntentsFor({ inboxId: a }), []);
    store.close();
  });
});

describe('migration 3 (send intents)', () => {
  test('applies to a version-2 database, keeping its outbox; the new table then works', () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const file = path.join(dir, 'state.db');
      const clock = new FakeClock(1_000);
      const v2 = new Database(file);
      migrate({ db: v2, migrations: migrations.slice(0, 2), clock, location: file, logger: silentStoreLogger });
      v2.prepare("INSERT INTO inbox (id, platform, message_id, session_key, state, event_json, received_at, updated_at) VALUES (1, 'telegram', 'm1', 'k', 'processing', ?, 0, 0)").run(JSON.stringify(makeEvent()));
      v2.prepare("INSERT INTO outbox (inbox_id, seq, platform, chat_id, platform_message_id, text, state, updated_at) VALUES (1, 0, 'telegram', 'chat-1', '5', 'kept', 'open', 0)").run();
      v2.close();
      const store = openStore({ path: file, clock });
      try {
        assert.deepEqual(store.outboundFor({ inboxId: 1 }).map((o) => [o.platformMessageId, o.text]), [['5', 'kept']]);
        store.recordSendIntent({ inboxId: 1, seq: 1, platform: 'telegram', chatId: 'chat-1', nonce: 'n', afterId: '5', text: 'next' });
        assert.deepEqual(store.sendIntentsFor({ inboxId: 1 }).map((i) => i.seq), [1]);
        assert.deepEqual(store.outboundIdsInChat({ platform: 'telegram', chatId: 'chat-1' }), ['5']);
      } finally {
        store.close();
      }
    } finally {
      cleanup();
    }
  });
});
