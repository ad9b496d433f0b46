import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { probeStore } from '../../../src/gateway/ops/disk-probes.js';
import { StoreDiskError, storeDiskErrorOf } from '../../../src/store/errors.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { diskErrorKind } from '../../../src/util/disk-error.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from './fixtures.js';

/** An error shaped like the ones node's fs and better-sqlite3 throw. */
function coded(code: string): Error {
  return Object.assign(new Error(`${code}: failed`), { code });
}

describe('diskErrorKind', () => {
  test('classifies errno and SQLite codes (also in a cause chain) and leaves other errors alone', () => {
    assert.equal(diskErrorKind({ error: coded('ENOSPC') }), 'diskFull');
    assert.equal(diskErrorKind({ error: coded('EDQUOT') }), 'diskFull');
    assert.equal(diskErrorKind({ error: coded('EROFS') }), 'readOnly');
    assert.equal(diskErrorKind({ error: coded('SQLITE_FULL') }), 'diskFull');
    assert.equal(diskErrorKind({ error: coded('SQLITE_READONLY') }), 'readOnly');
    assert.equal(diskErrorKind({ error: coded('SQLITE_READONLY_DBMOVED') }), 'readOnly');
    assert.equal(diskErrorKind({ error: coded('SQLITE_IOERR_WRITE') }), 'io');
    assert.equal(diskErrorKind({ error: coded('EIO') }), 'io');
    assert.equal(diskErrorKind({ error: new Error('wrapped', { cause: coded('ENOSPC') }) }), 'diskFull');
    assert.equal(diskErrorKind({ error: coded('SQLITE_CONSTRAINT_UNIQUE') }), undefined);
    assert.equal(diskErrorKind({ error: coded('ENOENT') }), undefined);
    assert.equal(diskErrorKind({ error: 'ENOSPC' }), undefined);
    assert.equal(diskErrorKind({ error: coded('SQLITE_IOERR_WRITE'), path: os.tmpdir() }), 'io', 'a writable folder with space: just an I/O error');
  });

  test('an I/O error on a read-only filesystem is taken for readOnly', { skip: process.getuid?.() === 0 ? false : 'mounting needs root' }, (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-ro-'));
    try {
      if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', dir]).status !== 0) {
        t.skip('mount -t tmpfs is not permitted here');
        return;
      }
      try {
        assert.equal(diskErrorKind({ error: coded('SQLITE_IOERR_WRITE'), path: dir }), 'readOnly');
      } finally {
        spawnSync('umount', ['-l', dir]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('store on a full disk', () => {
  test('a write SQLite refuses (a real SQLITE_FULL) is a StoreDiskError, reported once per call; reads still work; the probe passes once there is room', () => {
    const { dir, cleanup } = makeTempDir();
    let db: Database.Database | undefined;
    const reports: string[] = [];
    const clock = new FakeClock();
    const store = openStore({
      path: path.join(dir, 'state.db'),
      clock,
      disk: { failed: ({ part, kind, detail }) => reports.push(`${part} ${kind} ${detail}`), succeeded: () => reports.push('succeeded') },
      configure: (connection) => {
        db = connection;
      },
    });
    try {
      store.recordInbound({ event: makeEvent({ messageId: 'before' }), sessionKey: 'k' });
      assert.ok(db);
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
      const big = 'x'.repeat(64 * 1024);
      let error: unknown;
      try {
        store.recordInbound({ event: makeEvent({ messageId: 'while-full', text: big }), sessionKey: 'k' });
      } catch (caught) {
        error = caught;
      }
      assert.ok(error instanceof StoreDiskError, String(error));
      assert.equal(error.kind, 'diskFull');
      assert.equal(error.code, 'SQLITE_FULL');
      assert.equal(error.operation, 'recordInbound');
      assert.match(error.message, /cannot write \(disk full, SQLITE_FULL\) during recordInbound/);
      assert.equal(storeDiskErrorOf({ error: new Error('outer', { cause: error }) }), error);
      assert.deepEqual(reports, ['store diskFull the store cannot write (SQLITE_FULL during recordInbound)']);
      assert.throws(() => probeStore({ store, clock }), StoreDiskError, 'the probe writes a few pages: it fails too');
      assert.equal(store.pendingInbound().length, 1, 'reads work on a full disk; nothing half-written');
      assert.throws(() => store.recordInbound({ event: makeEvent({ messageId: 'bad', chat: { id: '', kind: 'dm' } }), sessionKey: 'k' }), (e: unknown) => !(e instanceof StoreDiskError), 'other errors stay what they are');

      db.pragma('max_page_count = 1073741823');
      assert.equal(probeStore({ store, clock }), true);
      assert.equal(store.recordInbound({ event: makeEvent({ messageId: 'while-full', text: big }), sessionKey: 'k' }).inserted, true);
    } finally {
      store.close();
      cleanup();
    }
  });
});
