import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CredentialPool } from '../../../src/agent/route/pool.js';
import { keyPoolLines } from '../../../src/doctor/keys.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { configOf } from './support.js';

const KEY_A = 'sk-doctor-aaaaaaaa3f9a';
const KEY_B = 'sk-doctor-bbbbbbbb7c21';

test('hermes doctor: each key masked with its calls or its cooldown, read from the store; all resting is ✗', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-doctor-keys-'));
  try {
    const profile = resolveProfile({ hermesHome: home });
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 13, 0));
    const config = configOf({ timezone: 'UTC', model: { base_url: 'http://127.0.0.1:9/v1', api_keys: [KEY_A, KEY_B], fallbacks: [{ name: 'local' }] } });
    assert.deepEqual(keyPoolLines({ config, profile, clock }).map((l) => [l.status, l.detail]), [['ok', 'sk-…3f9a: ok, 0 calls; sk-…7c21: ok, 0 calls']], 'no store yet');

    fs.mkdirSync(path.dirname(profile.dbPath), { recursive: true });
    const store = openStore({ path: profile.dbPath, clock });
    const pool = new CredentialPool({ keys: [KEY_A, KEY_B], strategy: 'least_used', clock, store });
    for (let i = 0; i < 12; i++) pool.recordUse({ key: pool.keys[0]! });
    pool.coolDown({ key: pool.keys[1]!, reason: 'out_of_credit' });
    store.close();
    const [one] = keyPoolLines({ config, profile, clock });
    assert.equal(one?.status, 'warn');
    assert.equal(one?.name, 'keys of fake-model (primary)'.replace('fake-model', config.model.name));
    assert.equal(one?.detail, 'sk-…3f9a: ok, 12 calls; sk-…7c21: cooling down until 6 Jan 13:00 (out of credit)');
    assert.ok(!JSON.stringify(one).includes('aaaaaaaa'), 'never the key');

    const again = openStore({ path: profile.dbPath, clock });
    new CredentialPool({ keys: [KEY_A], strategy: 'least_used', clock, store: again }).coolDown({ key: { key: KEY_A, fingerprint: pool.keys[0]!.fingerprint, masked: '' }, reason: 'rate_limit' });
    again.close();
    assert.equal(keyPoolLines({ config, profile, clock })[0]?.status, 'fail');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
