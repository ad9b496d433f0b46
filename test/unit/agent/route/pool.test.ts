import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { CredentialPool, EXHAUSTED_COOLDOWN_MS, RATE_LIMIT_COOLDOWN_MS } from '../../../../src/agent/route/pool.js';
import { keyFingerprint, maskKey } from '../../../../src/agent/route/keys.js';
import { openStore } from '../../../../src/store/sqlite-store.js';
import type { Store } from '../../../../src/store/types.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

const KEYS = ['sk-key-aaaaaaaaaaaa1111', 'sk-key-bbbbbbbbbbbb2222', 'sk-key-cccccccccccc3333'];

describe('CredentialPool', () => {
  let dir: string | undefined;
  let store: Store | undefined;
  afterEach(() => {
    store?.close();
    store = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Picks n times, recording each use, and returns the masked keys picked. */
  function pickMany(pool: CredentialPool, n: number): string[] {
    const picked: string[] = [];
    for (let i = 0; i < n; i++) {
      const pick = pool.pick();
      assert.equal(pick.kind, 'key');
      if (pick.kind !== 'key') break;
      pool.recordUse({ key: pick.key });
      picked.push(pick.key.key.slice(-4));
    }
    return picked;
  }

  test('strategies: fill_first keeps the first key, round_robin cycles, least_used evens out, random follows the random source', () => {
    const clock = new FakeClock();
    assert.deepEqual(pickMany(new CredentialPool({ keys: KEYS, strategy: 'fill_first', clock }), 3), ['1111', '1111', '1111']);
    assert.deepEqual(pickMany(new CredentialPool({ keys: KEYS, strategy: 'round_robin', clock }), 4), ['1111', '2222', '3333', '1111']);
    const least = new CredentialPool({ keys: KEYS, strategy: 'least_used', clock });
    least.recordUse({ key: least.keys[0]! });
    least.recordUse({ key: least.keys[0]! });
    assert.deepEqual(pickMany(least, 3), ['2222', '3333', '2222']);
    const draws = [0.9, 0.1, 0.5];
    const random = new CredentialPool({ keys: KEYS, strategy: 'random', clock, random: () => draws.shift() ?? 0 });
    assert.deepEqual(pickMany(random, 3), ['3333', '1111', '2222']);
  });

  test('a cooled-down key is skipped until its time; out of credit rests 24 h, a rate limit 1 h; exhaustion says when the first is back', async () => {
    const clock = new FakeClock();
    const pool = new CredentialPool({ keys: KEYS.slice(0, 2), strategy: 'fill_first', clock });
    const [a, b] = pool.keys;
    assert.equal(pool.coolDown({ key: a!, reason: 'out_of_credit' }), clock.now() + EXHAUSTED_COOLDOWN_MS);
    assert.equal(pool.coolDown({ key: b!, reason: 'rate_limit' }), clock.now() + RATE_LIMIT_COOLDOWN_MS);
    assert.deepEqual(pool.pick(), { kind: 'exhausted', nextAt: clock.now() + RATE_LIMIT_COOLDOWN_MS, reason: 'rate_limit' });
    await clock.advance(RATE_LIMIT_COOLDOWN_MS);
    const back = pool.pick();
    assert.equal(back.kind === 'key' ? back.key.fingerprint : undefined, b!.fingerprint);
    // `tried` leaves out keys already failed in this call.
    assert.equal(pool.pick({ tried: new Set([b!.fingerprint]) }).kind, 'exhausted');
    await clock.advance(EXHAUSTED_COOLDOWN_MS - RATE_LIMIT_COOLDOWN_MS - 1);
    assert.deepEqual(pool.status().map((s) => s.reason), ['out_of_credit', undefined]);
    await clock.advance(1);
    assert.deepEqual(pool.status().map((s) => s.coolingUntil), [undefined, undefined]);
  });

  test('counts and cooldowns persist in the store by fingerprint (never the key) across a reopen', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-pool-'));
    const dbPath = path.join(dir, 'state.db');
    const clock = new FakeClock();
    store = openStore({ path: dbPath, clock });
    const pool = new CredentialPool({ keys: KEYS, strategy: 'least_used', clock, store });
    pool.recordUse({ key: pool.keys[1]! });
    pool.coolDown({ key: pool.keys[0]!, reason: 'auth' });
    store.close();
    const raw = fs.readFileSync(dbPath).toString('latin1');
    for (const key of KEYS) assert.ok(!raw.includes(key), 'a key reached the database file');
    store = openStore({ path: dbPath, clock });
    const reopened = new CredentialPool({ keys: KEYS, strategy: 'least_used', clock, store });
    const pick = reopened.pick();
    assert.equal(pick.kind === 'key' ? pick.key.key : undefined, KEYS[2], 'A rests, B was used once, so C');
    assert.deepEqual(
      reopened.status().map((s) => [s.masked, s.calls, s.reason]),
      [['sk-…1111', 0, 'auth'], ['sk-…2222', 1, undefined], ['sk-…3333', 0, undefined]],
    );
    assert.equal(store.credentialStates({ fingerprints: [keyFingerprint({ key: KEYS[0]! })] })[0]?.cooldownReason, 'auth');
  });

  test('the once-a-minute probe of a resting key keeps its spacing across restarts (a crash loop does not probe on every start)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-pool-'));
    const dbPath = path.join(dir, 'state.db');
    const clock = new FakeClock();
    store = openStore({ path: dbPath, clock });
    const restart = (): CredentialPool => {
      store?.close();
      store = openStore({ path: dbPath, clock });
      return new CredentialPool({ keys: [KEYS[0]!], strategy: 'least_used', clock, store });
    };
    restart().coolDown({ key: { key: KEYS[0]!, fingerprint: keyFingerprint({ key: KEYS[0]! }), masked: 'sk-…1111' }, reason: 'out_of_credit' });
    for (let start = 0; start < 5; start++) {
      await clock.advance(5_000);
      assert.equal(restart().pick().kind, 'exhausted', `restart ${start + 1}, ${(start + 1) * 5} s after the failure: no probe yet`);
    }
    await clock.advance(35_000);
    const pool = restart();
    const probe = pool.pick();
    assert.equal(probe.kind === 'key' ? probe.probe : undefined, true, 'a minute after the failure: one probe');
    assert.equal(pool.pick().kind, 'exhausted', 'and not a second one in the same minute');
    // The probe failed again: the key rests anew from now, and the next restart waits a minute again.
    if (probe.kind === 'key') pool.coolDown({ key: probe.key, reason: 'out_of_credit' });
    await clock.advance(30_000);
    assert.equal(restart().pick().kind, 'exhausted');
    await clock.advance(30_000);
    assert.equal(restart().pick().kind, 'key');
  });

  test('maskKey shows only the prefix and the last 4 characters; a key listed twice is one key', () => {
    assert.equal(maskKey({ key: 'sk-proj-abcdefghijk3f9a' }), 'sk-…3f9a');
    assert.equal(maskKey({ key: 'short' }), '…', 'nothing of a very short key');
    assert.equal(maskKey({ key: 'localsecret1234' }), '…34', 'a 15-character key shows 2 characters, not 7');
    assert.equal(maskKey({ key: 'abcdefghijklmnopqrst' }), '…st');
    assert.equal(maskKey({ key: 'abcdefghijklmnopqrstu' }), 'abc…rstu');
    assert.equal(new CredentialPool({ keys: [KEYS[0]!, KEYS[0]!], strategy: 'fill_first', clock: new FakeClock() }).keys.length, 1);
  });
});
