import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import { DiskHealth } from '../../src/gateway/ops/disk-health.js';
import { JournalRefusedError } from '../../src/core/errors.js';
import { systemClock } from '../../src/core/clock.js';
import { fillStore, freeStore } from '../helpers/fill-store.js';
import { startHarness } from '../helpers/harness.js';

test('the disk fills while a reply streams: the reply is delivered once (no error note), a new message is refused, and the turn is recorded done once space returns', { timeout: 30_000 }, async () => {
  let db: Database.Database | undefined;
  const disk = new DiskHealth({ clock: systemClock, probeIntervalMs: 50 });
  const h = await startHarness({ disk, configureStore: (connection) => (db = connection), config: { gateway: { busy_policy: 'queue' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ chunks: ['Alpha ', 'beta ', 'done.'], chunkDelayMs: 300 }, { text: 'Answer to the second.' });
    await h.adapter.inject({ text: 'first', messageId: 'first' });
    await h.adapter.waitFor({ predicate: () => (h.adapter.shown()[0]?.text ?? '').includes('Alpha'), what: 'the reply streaming' });
    assert.ok(db);
    fillStore({ db });
    await assert.rejects(h.adapter.inject({ text: 'second', messageId: 'second' }), JournalRefusedError, 'not journaled, so not acknowledged');
    await h.adapter.waitFor({ predicate: () => h.adapter.shown()[0]?.text === 'Alpha beta done.', what: 'the whole reply' });
    assert.equal(h.runner.health().status, 'degraded');
    const store = h.readStore();
    try {
      assert.equal(store.pendingInbound().length, 1, 'the first turn could not be recorded done while the disk is full');
    } finally {
      store.close();
    }

    freeStore({ db });
    await h.adapter.waitFor({ predicate: () => h.runner.health().status === 'ok', what: 'the disk recovered' });
    await h.runner.waitIdle();
    const after = h.readStore();
    try {
      assert.equal(after.pendingInbound().length, 0, 'the delivered turn is recorded done after recovery, not answered again');
    } finally {
      after.close();
    }
    await h.adapter.inject({ text: 'second', messageId: 'second' }); // the platform's redelivery
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().some((m) => m.text === 'Answer to the second.'), what: 'the second answer' });
    await h.runner.waitIdle();
    assert.deepEqual(h.adapter.shown().map((m) => m.text), ['Alpha beta done.', 'Answer to the second.']);
    assert.equal(h.fake.requests.length, 2);
  } finally {
    await h.stop();
  }
});

test('journaled messages replayed at start on a full disk wait (no error reply) and are answered once space returns', { timeout: 30_000 }, async () => {
  let db: Database.Database | undefined;
  let fillOnOpen = false;
  const disk = new DiskHealth({ clock: systemClock, probeIntervalMs: 50 });
  const h = await startHarness({
    disk,
    configureStore: (connection) => {
      db = connection;
      if (fillOnOpen) fillStore({ db: connection });
    },
  });
  try {
    h.fake.setResponder(() => ({ text: 'Answered after all.' }));
    // A message a previous run journaled but never answered (it crashed), and the disk is full when it starts again.
    const other = h.readStore();
    try {
      other.recordInbound({
        event: { platform: 'test', messageId: 'left-over', chat: { id: 'chat-9', kind: 'dm' }, sender: { id: 'user-1', isBot: false }, text: 'are you there?', media: [], mentioned: true, receivedAt: Date.now() },
        sessionKey: 'test:test:chat-9',
      });
    } finally {
      other.close();
    }
    await h.runner.stop();
    fillOnOpen = true;
    await h.restart();
    await h.adapter.waitFor({ predicate: () => h.runner.health().status === 'degraded', what: 'degraded: the replayed turn cannot write' });
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(h.adapter.shown({ chatId: 'chat-9' }), [], 'no error reply and no answer while the store cannot record the turn');
    assert.equal(h.fake.requests.length, 0);

    assert.ok(db);
    freeStore({ db });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown({ chatId: 'chat-9' }).some((m) => m.text === 'Answered after all.'), what: 'the replayed message answered' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown({ chatId: 'chat-9' }).length, 1);
    assert.equal(h.runner.health().status, 'ok');
  } finally {
    await h.stop();
  }
});
