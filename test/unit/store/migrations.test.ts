import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { UserFacingError } from '../../../src/core/errors.js';
import { migrate } from '../../../src/store/migrate.js';
import { migrations, type Migration } from '../../../src/store/migrations.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { silentStoreLogger } from '../../../src/store/store-logger.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeTempDir } from './fixtures.js';

/** Versions recorded in a database file. */
function recordedVersions(file: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
  } finally {
    db.close();
  }
}

describe('store migrations', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir()));
  afterEach(() => cleanup());

  test('reopening a file database applies nothing twice and keeps the data', () => {
    const file = path.join(dir, 'state.db');
    const clock = new FakeClock();
    const first = openStore({ path: file, clock });
    first.setCursor({ name: 'telegram.offset', value: '42' });
    first.close();
    assert.deepEqual(recordedVersions(file), migrations.map((m) => m.version));

    const infos: string[] = [];
    const logger = { info: (_: object, msg: string) => infos.push(msg), warn: () => undefined };
    const second = openStore({ path: file, clock, logger });
    assert.equal(second.getCursor({ name: 'telegram.offset' }), '42');
    second.close();
    assert.deepEqual(infos, [], 'no migration ran on reopen');
    assert.deepEqual(recordedVersions(file), migrations.map((m) => m.version));
  });

  test('a database from a newer hermes is refused with a UserFacingError', () => {
    const file = path.join(dir, 'state.db');
    openStore({ path: file, clock: new FakeClock() }).close();
    const db = new Database(file);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(999, 'future', 0);
    db.close();

    assert.throws(
      () => openStore({ path: file, clock: new FakeClock() }),
      (error: unknown) =>
        error instanceof UserFacingError &&
        error.message.includes('schema version 999') &&
        error.message.includes(file) &&
        (error.hint ?? '').includes('Upgrade hermes'),
    );
  });

  test('only migrations newer than the recorded version run, each once', () => {
    const db = new Database(':memory:');
    const clock = new FakeClock();
    const ran: number[] = [];
    const step = (version: number): Migration => ({
      version,
      name: `step ${version}`,
      up: (target) => {
        ran.push(version);
        target.exec(`CREATE TABLE t${version} (x INTEGER)`);
      },
    });
    const args = { db, clock, location: ':memory:', logger: silentStoreLogger };
    assert.deepEqual(migrate({ ...args, migrations: [step(1), step(2)] }).applied, [1, 2]);
    const result = migrate({ ...args, migrations: [step(1), step(2), step(3)] });
    assert.deepEqual(result.applied, [3]);
    assert.equal(result.version, 3);
    assert.deepEqual(ran, [1, 2, 3]);
    db.close();
  });

  test('a failing migration leaves no trace and is retried on the next open', () => {
    const db = new Database(':memory:');
    const args = { db, clock: new FakeClock(), location: ':memory:', logger: silentStoreLogger };
    const broken: Migration = {
      version: 1,
      name: 'broken',
      up: (target) => {
        target.exec('CREATE TABLE half (x INTEGER)');
        throw new Error('boom');
      },
    };
    assert.throws(() => migrate({ ...args, migrations: [broken] }), /boom/);
    const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE name = 'half'").pluck().all();
    assert.deepEqual(tables, []);
    const fixed: Migration = { ...broken, up: (target) => target.exec('CREATE TABLE half (x INTEGER)') };
    assert.deepEqual(migrate({ ...args, migrations: [fixed] }).applied, [1]);
    db.close();
  });

  test('a migration list with gaps is rejected', () => {
    const db = new Database(':memory:');
    const noop = (version: number): Migration => ({ version, name: 'noop', up: () => undefined });
    assert.throws(
      () => migrate({ db, clock: new FakeClock(), location: 'x', logger: silentStoreLogger, migrations: [noop(1), noop(3)] }),
      /numbered 1\.\.n/,
    );
    db.close();
  });
});

test("migration 9: the children usage query finds a session's children by the sessions_parent index, not a scan of sessions", () => {
  const { dir, cleanup } = makeTempDir();
  try {
    const file = path.join(dir, 'state.db');
    openStore({ path: file, clock: new FakeClock() }).close();
    const db = new Database(file, { readonly: true });
    try {
      const plan = db
        .prepare<{ id: string }, { detail: string }>(
          `EXPLAIN QUERY PLAN SELECT c.id FROM sessions c JOIN sessions p ON p.id = @id WHERE c.parent_session_id = @id AND c.key <> p.key`,
        )
        .all({ id: 'x' })
        .map((row) => row.detail);
      assert.ok(plan.some((detail) => /USING INDEX sessions_parent/.test(detail)), plan.join('\n'));
      assert.ok(!plan.some((detail) => /^SCAN c\b/.test(detail)), plan.join('\n'));
    } finally {
      db.close();
    }
  } finally {
    cleanup();
  }
});
