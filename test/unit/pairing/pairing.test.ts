import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { PAIRING_CODE_ALPHABET, Pairing, type PairingRequestResult } from '../../../src/gateway/intake/pairing/pairing.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const HOUR = 3_600_000;

/** The code of a result that made or reused one. */
function codeOf(result: PairingRequestResult): string {
  return result.code;
}

describe('Pairing', () => {
  let store: Store;
  let clock: FakeClock;
  let pairing: Pairing;
  beforeEach(() => {
    clock = new FakeClock();
    store = openStore({ path: ':memory:', clock });
    pairing = new Pairing({ store, clock });
  });
  afterEach(() => store.close());

  const ask = (senderId: string, platform = 'telegram'): PairingRequestResult =>
    pairing.request({ platform, senderId, senderName: `name-${senderId}`, chatId: `chat-${senderId}` });

  test('a new sender gets a fresh code that expires after the TTL', () => {
    const result = ask('u1');
    assert.equal(result.kind, 'new');
    assert.match(codeOf(result), /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    assert.ok(result.kind === 'new' && result.expiresAt === clock.now() + HOUR);
    const [pending] = pairing.list().pending;
    assert.equal(pending?.senderId, 'u1');
    assert.equal(pending?.senderName, 'name-u1');
    assert.equal(pending?.chatId, 'chat-u1');
  });

  test('the same sender reuses its unexpired code instead of getting another', async () => {
    const first = ask('u1');
    await clock.advance(HOUR - 1);
    const again = ask('u1');
    assert.deepEqual(again, { kind: 'pending', code: codeOf(first), expiresAt: first.kind === 'new' ? first.expiresAt : 0 });
    assert.equal(pairing.list().pending.length, 1);
  });

  test('after the TTL the code is gone from the list and the sender gets a new one', async () => {
    const first = codeOf(ask('u1'));
    await clock.advance(HOUR);
    assert.deepEqual(pairing.list().pending, []);
    const second = ask('u1');
    assert.equal(second.kind, 'new');
    assert.notEqual(codeOf(second), first);
  });

  test('many strangers never lock pairing: past the bound the oldest code is dropped, not the newest refused', async () => {
    const bounded = new Pairing({ store, clock, maxPending: 3 });
    const askB = (senderId: string, platform = 'telegram'): PairingRequestResult => bounded.request({ platform, senderId, chatId: `chat-${senderId}` });
    const codes = new Map<string, string>();
    for (const id of ['a', 'b', 'c']) {
      const result = askB(id);
      assert.equal(result.kind, 'new');
      codes.set(id, result.code);
      await clock.advance(1000);
    }
    const d = askB('d');
    assert.equal(d.kind, 'new', 'a fourth stranger gets a code');
    assert.deepEqual(d.kind === 'new' ? d.dropped.map((r) => r.senderId) : [], ['a'], 'the oldest code made room');
    assert.deepEqual(bounded.list({ platform: 'telegram' }).pending.map((r) => r.senderId), ['b', 'c', 'd']);
    assert.deepEqual(bounded.approve({ platform: 'telegram', code: codes.get('a') ?? '' }), { ok: false, reason: 'unknown' });
    assert.deepEqual(askB('b'), { kind: 'pending', code: codes.get('b'), expiresAt: clock.now() - 2000 + HOUR }, 'a waiting sender keeps its one code');
    assert.equal(askB('d', 'slack').kind, 'new', 'other platforms are separate');
    assert.equal(bounded.list({ platform: 'slack' }).pending.length, 1);
    const again = askB('a');
    assert.equal(again.kind, 'new', 'a dropped sender asking again gets a new code');
    assert.equal(bounded.approve({ platform: 'telegram', code: again.code }).ok, true);
  });

  test('under a flood the store stays bounded: live codes at most the bound, rows at most twice it', async () => {
    const bounded = new Pairing({ store, clock, maxPending: 10 });
    for (let i = 0; i < 500; i++) {
      bounded.request({ platform: 'sms', senderId: `+1555000${String(i).padStart(4, '0')}`, chatId: `c${i}` });
      await clock.advance(HOUR / 100);
      assert.ok(bounded.list({ platform: 'sms' }).pending.length <= 10);
      assert.ok(store.pairingRequests({ platform: 'sms', now: 0 }).length <= 20);
    }
  });

  test('approve takes the code case-insensitively, ignoring whitespace, and lets the sender in once', () => {
    const code = codeOf(ask('u1'));
    assert.equal(pairing.isApproved({ platform: 'telegram', senderId: 'u1' }), false);
    const typed = ` ${code.slice(0, 4).toLowerCase()} ${code.slice(4)}\n`;
    assert.deepEqual(pairing.approve({ platform: 'telegram', code: typed }), { ok: true, senderId: 'u1', senderName: 'name-u1' });
    assert.equal(pairing.isApproved({ platform: 'telegram', senderId: 'u1' }), true);
    assert.equal(pairing.isApproved({ platform: 'slack', senderId: 'u1' }), false, 'approval is per platform');
    assert.deepEqual(pairing.list().pending, []);
    assert.deepEqual(pairing.approve({ platform: 'telegram', code }), { ok: false, reason: 'unknown' }, 'a code works once');
  });

  test('a code from another platform or never issued is unknown', () => {
    const code = codeOf(ask('u1'));
    assert.deepEqual(pairing.approve({ platform: 'slack', code }), { ok: false, reason: 'unknown' });
    assert.deepEqual(pairing.approve({ platform: 'telegram', code: 'ZZZZZZZZ' }), { ok: false, reason: 'unknown' });
    assert.equal(pairing.isApproved({ platform: 'slack', senderId: 'u1' }), false);
  });

  test('an expired code is refused as expired, then forgotten one TTL later', async () => {
    const code = codeOf(ask('u1'));
    await clock.advance(HOUR);
    assert.deepEqual(pairing.approve({ platform: 'telegram', code }), { ok: false, reason: 'expired' });
    assert.equal(pairing.isApproved({ platform: 'telegram', senderId: 'u1' }), false);
    await clock.advance(HOUR);
    ask('someone-else');
    assert.deepEqual(pairing.approve({ platform: 'telegram', code }), { ok: false, reason: 'unknown' });
  });

  test('revoke takes access away and reports whether there was any', () => {
    pairing.approve({ platform: 'telegram', code: codeOf(ask('u1')) });
    assert.equal(pairing.revoke({ platform: 'telegram', senderId: 'u1' }), true);
    assert.equal(pairing.isApproved({ platform: 'telegram', senderId: 'u1' }), false);
    assert.equal(pairing.revoke({ platform: 'telegram', senderId: 'u1' }), false);
    assert.deepEqual(pairing.list().approved, []);
  });

  test('list filters by platform', () => {
    pairing.approve({ platform: 'slack', code: codeOf(ask('s1', 'slack')) });
    ask('t1');
    const slack = pairing.list({ platform: 'slack' });
    assert.deepEqual(slack.pending, []);
    assert.deepEqual(slack.approved.map((a) => a.senderId), ['s1']);
    const telegram = pairing.list({ platform: 'telegram' });
    assert.deepEqual(telegram.pending.map((r) => r.senderId), ['t1']);
    assert.deepEqual(telegram.approved, []);
  });

  test('a colliding code is retried with a fresh draw', () => {
    // Draws: 8 × index 0 for u1, then 8 × index 0 again (collision), then 8 × index 1 for u2.
    const script = [...Array(16).fill(0), ...Array(8).fill(1)];
    const scripted = new Pairing({ store, clock, random: () => script.shift() ?? 2 });
    assert.equal(codeOf(scripted.request({ platform: 'telegram', senderId: 'u1', chatId: 'c1' })), 'AAAAAAAA');
    assert.equal(codeOf(scripted.request({ platform: 'telegram', senderId: 'u2', chatId: 'c2' })), 'BBBBBBBB');
    assert.equal(script.length, 0);
    assert.equal(PAIRING_CODE_ALPHABET[1], 'B');
  });

  test('a random source that always collides fails loudly instead of looping', () => {
    const stuck = new Pairing({ store, clock, random: () => 0 });
    stuck.request({ platform: 'telegram', senderId: 'u1', chatId: 'c1' });
    assert.throws(() => stuck.request({ platform: 'telegram', senderId: 'u2', chatId: 'c2' }), /no free pairing code/);
  });

  test('custom TTL and limit; nonsense options are refused', async () => {
    const strict = new Pairing({ store, clock, ttlMs: 60_000, maxPending: 1 });
    assert.equal(strict.request({ platform: 'sms', senderId: 'a', chatId: 'a' }).kind, 'new');
    const b = strict.request({ platform: 'sms', senderId: 'b', chatId: 'b' });
    assert.deepEqual(b.kind === 'new' ? b.dropped.map((r) => r.senderId) : b.kind, ['a']);
    await clock.advance(60_000);
    assert.equal(strict.request({ platform: 'sms', senderId: 'b', chatId: 'b' }).kind, 'new');
    assert.throws(() => new Pairing({ store, clock, ttlMs: 0 }), RangeError);
    assert.throws(() => new Pairing({ store, clock, maxPending: 0 }), RangeError);
  });
});
