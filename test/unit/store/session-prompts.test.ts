import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../../../src/store/migrate.js';
import { migrations } from '../../../src/store/migrations.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { silentStoreLogger } from '../../../src/store/store-logger.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeTempDir } from './fixtures.js';

describe('session prompts and model usage (migration 4)', () => {
  test('a session keeps the exact prompt stored with it; other sessions have none', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const a = store.createSession({ key: 'k' });
    const b = store.createSession({ key: 'k2' });
    const text = 'You are Hermes.\n\n§ memory\n\u00e9 ✓';
    store.setSessionPrompt({ sessionId: a.id, prompt: { text, layers: [{ name: 'identity', chars: 15 }, { name: 'memory', chars: 8 }] } });
    assert.deepEqual(store.sessionPrompt({ sessionId: a.id }), { text, layers: [{ name: 'identity', chars: 15 }, { name: 'memory', chars: 8 }] });
    assert.equal(store.sessionPrompt({ sessionId: b.id }), undefined);
    assert.throws(() => store.setSessionPrompt({ sessionId: 'nope', prompt: { text: 'x', layers: [] } }), /no such session/);
    store.close();
  });

  test('sessions with the same prompt share one stored copy; the sessions row holds only a pointer to it', () => {
    let handle: Database.Database | undefined;
    const store = openStore({
      path: ':memory:',
      clock: new FakeClock(),
      configure: (db) => {
        handle = db;
      },
    });
    const prompt = { text: 'You are Hermes.\n' + 'x'.repeat(10_000), layers: [{ name: 'identity', chars: 10_016 }] };
    const [a, b, c] = [store.createSession({ key: 'a' }), store.createSession({ key: 'b' }), store.createSession({ key: 'c' })];
    store.setSessionPrompt({ sessionId: a.id, prompt });
    store.setSessionPrompt({ sessionId: b.id, prompt });
    store.setSessionPrompt({ sessionId: c.id, prompt: { ...prompt, extraTools: '{"servers":[]}' } });
    assert.deepEqual(store.sessionPrompt({ sessionId: b.id }), prompt);
    assert.deepEqual(store.sessionPrompt({ sessionId: c.id }), { ...prompt, extraTools: '{"servers":[]}' });
    assert.ok(handle);
    assert.equal(handle.prepare('SELECT count(*) FROM prompts').pluck().get(), 2, 'the same text, layers and tools are stored once');
    const columns = handle.prepare<[], { name: string }>('PRAGMA table_info(sessions)').all().map((col) => col.name);
    assert.ok(!columns.includes('system_prompt') && columns.includes('prompt_id'), columns.join(', '));
    store.close();
  });

  test('migration 15 moves the prompts a store kept in its sessions rows, sharing equal ones, and keeps sessions without one', () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const file = path.join(dir, 'state.db');
      const db = new Database(file);
      migrate({ db, clock: new FakeClock(), location: file, logger: silentStoreLogger, migrations: migrations.filter((m) => m.version <= 14) });
      const insert = db.prepare('INSERT INTO sessions (id, key, started_at, system_prompt, prompt_layers_json, extra_tools_json, model) VALUES (?, ?, 0, ?, ?, ?, ?)');
      const layers = JSON.stringify([{ name: 'identity', chars: 5 }]);
      insert.run('s1', 'k1', 'Hello', layers, null, 'm1');
      insert.run('s2', 'k2', 'Hello', layers, null, null);
      insert.run('s3', 'k3', 'Other', null, '{"servers":[]}', null);
      insert.run('s4', 'k4', null, null, null, 'm4');
      // More than one page of the move (200 rows a page).
      for (let i = 0; i < 450; i++) insert.run(`many-${i}`, `km-${i}`, `Prompt ${i % 3}`, layers, null, null);
      db.close();
      const store = openStore({ path: file, clock: new FakeClock() });
      try {
        assert.deepEqual(store.sessionPrompt({ sessionId: 's1' }), { text: 'Hello', layers: [{ name: 'identity', chars: 5 }] });
        assert.deepEqual(store.sessionPrompt({ sessionId: 's2' }), { text: 'Hello', layers: [{ name: 'identity', chars: 5 }] });
        assert.deepEqual(store.sessionPrompt({ sessionId: 's3' }), { text: 'Other', layers: [], extraTools: '{"servers":[]}' });
        assert.equal(store.sessionPrompt({ sessionId: 's4' }), undefined);
        assert.equal(store.sessionModel({ sessionId: 's1' }), 'm1');
        assert.equal(store.sessionModel({ sessionId: 's4' }), 'm4');
        for (const i of [0, 199, 200, 201, 449]) assert.equal(store.sessionPrompt({ sessionId: `many-${i}` })?.text, `Prompt ${i % 3}`, `many-${i}`);
      } finally {
        store.close();
      }
      const after = new Database(file, { readonly: true });
      try {
        assert.equal(after.prepare('SELECT count(*) FROM prompts').pluck().get(), 5);
        assert.equal(after.prepare('SELECT count(*) FROM sessions WHERE prompt_id IS NULL').pluck().get(), 1, 'only the session that had none');
      } finally {
        after.close();
      }
    } finally {
      cleanup();
    }
  });

  test('usage adds up per session; calls without reported usage are counted apart', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const a = store.createSession({ key: 'k' });
    assert.deepEqual(store.sessionUsage({ sessionId: a.id }), { calls: 0, unreported: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0 });
    store.recordModelCall({ sessionId: a.id, model: 'm', promptTokens: 100, completionTokens: 20, cachedTokens: 64 });
    store.recordModelCall({ sessionId: a.id, model: 'm', promptTokens: 120, completionTokens: 5, cachedTokens: null });
    store.recordModelCall({ sessionId: a.id, model: 'm', promptTokens: null, completionTokens: null, cachedTokens: null });
    assert.deepEqual(store.sessionUsage({ sessionId: a.id }), { calls: 3, unreported: 1, promptTokens: 220, completionTokens: 25, cachedTokens: 64 });
    store.close();
  });
});
