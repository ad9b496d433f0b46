import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { runMaintenance } from '../../../src/gateway/ops/maintenance.js';
import { pruneCache } from '../../../src/gateway/ops/cache-prune.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test('answered inbox rows are pruned after the retention; pending ones and history stay', async () => {
  const clock = new FakeClock();
  const store = openStore({ path: ':memory:', clock });
  const event = (id: string) => ({
    platform: 'test',
    messageId: id,
    chat: { id: 'c', kind: 'dm' as const },
    sender: { id: 'u', isBot: false },
    text: `text ${id}`,
    media: [],
    mentioned: true,
    receivedAt: clock.now(),
  });
  const session = store.createSession({ key: 'k' });
  const old = store.recordInbound({ event: event('old'), sessionKey: 'k' }).row;
  store.appendMessage({ sessionId: session.id, inboxId: old.id, role: 'user', content: 'kept in history' });
  store.recordOutbound({ inboxId: old.id, seq: 0, platform: 'test', chatId: 'c', platformMessageId: 'p1', text: 'reply', state: 'open' });
  store.completeTurn({ inboxId: old.id });
  const waiting = store.recordInbound({ event: event('waiting'), sessionKey: 'k' }).row;
  const controller = new AbortController();
  const run = runMaintenance({ store, clock, logger: pino({ level: 'silent' }), signal: controller.signal, intervalMs: 1000, retentionMs: 5000 });
  await clock.advance(1000);
  assert.ok(store.getInbound({ inboxId: old.id }), 'too young to prune');
  await clock.advance(5000);
  assert.equal(store.getInbound({ inboxId: old.id }), undefined);
  assert.equal(store.outboundFor({ inboxId: old.id }).length, 0);
  assert.ok(store.getInbound({ inboxId: waiting.id }), 'a pending row is never pruned');
  assert.equal(store.history({ sessionId: session.id })[0]?.content, 'kept in history');
  // Once pruned, the same platform message id would be taken as new: the window is days, redeliveries are minutes.
  controller.abort();
  await run;
  store.close();
});

test('old downloads are pruned from the media cache; recent ones stay', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-cache-'));
  try {
    mkdirSync(path.join(dir, 'telegram', '42'), { recursive: true });
    const old = path.join(dir, 'telegram', '42', 'old.jpg');
    const fresh = path.join(dir, 'telegram', 'fresh.jpg');
    writeFileSync(old, 'x');
    writeFileSync(fresh, 'y');
    const clock = new FakeClock(Date.now());
    utimesSync(old, new Date(clock.now() - 10_000), new Date(clock.now() - 10_000));
    const store = openStore({ path: ':memory:', clock });
    const controller = new AbortController();
    const run = runMaintenance({ store, clock, logger: pino({ level: 'silent' }), signal: controller.signal, cacheDir: dir, retentionMs: 5000, intervalMs: 1000 });
    await clock.advance(10);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await run;
    store.close();
    assert.equal(existsSync(old), false);
    assert.equal(existsSync(path.join(dir, 'telegram', '42')), false, 'emptied folders go too');
    assert.equal(existsSync(fresh), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pruning leaves a folder a download has just made (empty, new) and removes old empty ones and those it emptied', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-cache-'));
  try {
    const now = Date.now();
    const justMade = path.join(dir, 'sms');
    const oldEmpty = path.join(dir, 'telegram');
    const emptied = path.join(dir, 'slack');
    for (const folder of [justMade, oldEmpty, emptied]) mkdirSync(folder);
    const stale = path.join(emptied, 'old.png');
    writeFileSync(stale, 'x');
    utimesSync(stale, new Date(now - 10_000), new Date(now - 10_000));
    utimesSync(oldEmpty, new Date(now - 10_000), new Date(now - 10_000));
    assert.equal(await pruneCache({ dir, before: now - 5000 }), 1);
    assert.equal(existsSync(justMade), true, 'a download that made its folder a moment ago would fail to open its file');
    assert.equal(existsSync(oldEmpty), false);
    assert.equal(existsSync(emptied), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
