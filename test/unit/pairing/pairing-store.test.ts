import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate } from '../../../src/store/migrate.js';
import { migrations } from '../../../src/store/migrations.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { silentStoreLogger } from '../../../src/store/store-logger.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const request = { platform: 'telegram', code: 'ABCD2345', senderId: 'u1', senderName: 'Ada', chatId: 'c1' };

describe('pairing in the store', () => {
  let dir: string;
  let clock: FakeClock;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    clock = new FakeClock();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('migration 2 applies to a version-1 database and keeps its data', () => {
    const file = path.join(dir, 'state.db');
    const v1 = new Database(file);
    migrate({ db: v1, migrations: migrations.slice(0, 1), clock, location: file, logger: silentStoreLogger });
    v1.prepare("INSERT INTO cursors (name, value, updated_at) VALUES ('telegram.offset', '7', 0)").run();
    v1.close();

    const infos: string[] = [];
    const store = openStore({ path: file, clock, logger: { info: (obj) => infos.push(JSON.stringify(obj)), warn: () => undefined } });
    try {
      assert.equal(infos.length, migrations.length - 1, 'each later migration logged once');
      assert.match(infos[0] ?? '', /"version":2/);
      assert.equal(store.getCursor({ name: 'telegram.offset' }), '7');
      assert.ok(store.createPairingRequest({ ...request, expiresAt: clock.now() + 1000 }));
      store.approveSender({ platform: 'slack', senderId: 'U1', senderName: null });
      assert.equal(store.isApprovedSender({ platform: 'slack', senderId: 'U1' }), true);
    } finally {
      store.close();
    }
    const db = new Database(file, { readonly: true });
    const versions = db.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    db.close();
    assert.deepEqual(versions, migrations.map((m) => m.version));
  });

  describe('queries', () => {
    let store: Store;
    beforeEach(() => (store = openStore({ path: ':memory:', clock })));
    afterEach(() => store.close());

    test('a taken code is refused without touching the first request', () => {
      const expiresAt = clock.now() + 1000;
      const first = store.createPairingRequest({ ...request, expiresAt });
      assert.deepEqual(first, { ...request, createdAt: clock.now(), expiresAt });
      assert.equal(store.createPairingRequest({ ...request, senderId: 'u2', expiresAt }), undefined);
      assert.deepEqual(store.pairingRequests({ now: clock.now() }), [first]);
      assert.ok(store.createPairingRequest({ ...request, platform: 'slack', expiresAt }), 'codes are per platform');
    });

    test("a sender's new request replaces its old one", () => {
      store.createPairingRequest({ ...request, expiresAt: clock.now() + 1000 });
      store.createPairingRequest({ ...request, code: 'WXYZ6789', expiresAt: clock.now() + 2000 });
      assert.deepEqual(store.pairingRequests({ platform: 'telegram', now: clock.now() }).map((r) => r.code), ['WXYZ6789']);
      assert.equal(store.findPairingRequest({ platform: 'telegram', code: 'ABCD2345' }), undefined);
    });

    test('expiry: lists and lookups hide expired requests, take leaves them, prune deletes them', () => {
      const expiresAt = clock.now() + 1000;
      store.createPairingRequest({ ...request, expiresAt });
      assert.equal(store.pairingRequestForSender({ platform: 'telegram', senderId: 'u1', now: expiresAt - 1 })?.code, 'ABCD2345');
      assert.equal(store.pairingRequestForSender({ platform: 'telegram', senderId: 'u1', now: expiresAt }), undefined);
      assert.deepEqual(store.pairingRequests({ now: expiresAt }), []);
      assert.equal(store.takePairingRequest({ platform: 'telegram', code: 'ABCD2345', now: expiresAt }), undefined);
      assert.equal(store.findPairingRequest({ platform: 'telegram', code: 'ABCD2345' })?.senderId, 'u1');
      assert.equal(store.prunePairingRequests({ now: expiresAt - 1 }), 0);
      assert.equal(store.prunePairingRequests({ now: expiresAt }), 1);
      assert.equal(store.findPairingRequest({ platform: 'telegram', code: 'ABCD2345' }), undefined);
    });

    test('take removes an unexpired request and returns it once', () => {
      store.createPairingRequest({ ...request, expiresAt: clock.now() + 1000 });
      assert.equal(store.takePairingRequest({ platform: 'telegram', code: 'ABCD2345', now: clock.now() })?.senderName, 'Ada');
      assert.equal(store.takePairingRequest({ platform: 'telegram', code: 'ABCD2345', now: clock.now() }), undefined);
    });

    test('approving again updates the time, keeps a known name, and drops the pending request', async () => {
      store.createPairingRequest({ ...request, expiresAt: clock.now() + 1000 });
      const first = store.approveSender({ platform: 'telegram', senderId: 'u1', senderName: 'Ada' });
      assert.deepEqual(store.pairingRequests({ now: clock.now() }), []);
      await clock.advance(500);
      const again = store.approveSender({ platform: 'telegram', senderId: 'u1' });
      assert.equal(again.senderName, 'Ada');
      assert.equal(again.approvedAt, first.approvedAt + 500);
      store.approveSender({ platform: 'discord', senderId: 'd1', senderName: 'Bo' });
      assert.deepEqual(store.approvedSenders({}).map((a) => `${a.platform}/${a.senderId}`), ['discord/d1', 'telegram/u1']);
      assert.deepEqual(store.approvedSenders({ platform: 'discord' }).map((a) => a.senderName), ['Bo']);
      assert.equal(store.revokeSender({ platform: 'discord', senderId: 'd1' }), true);
      assert.equal(store.revokeSender({ platform: 'discord', senderId: 'd1' }), false);
    });

    test('pairing methods fail clearly after close', () => {
      const other = openStore({ path: ':memory:', clock });
      other.close();
      assert.throws(() => other.isApprovedSender({ platform: 'telegram', senderId: 'u1' }), /used after it was closed/);
    });
  });
});
