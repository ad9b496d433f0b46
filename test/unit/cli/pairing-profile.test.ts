import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Pairing } from '../../../src/gateway/intake/pairing/pairing.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';
import { cli } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-pair-p-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

/** Runs `use` on a profile's own state.db, as its gateway would. */
function withPairing<T>(profile: string, use: (pairing: Pairing) => T): T {
  const dir = profile === 'default' ? home : path.join(home, 'profiles', profile);
  mkdirSync(dir, { recursive: true });
  const store = openStore({ path: path.join(dir, 'state.db'), clock: systemClock });
  try {
    return use(new Pairing({ store, clock: systemClock }));
  } finally {
    store.close();
  }
}

test('pairing commands act on the profile -p (or HERMES_PROFILE) names, never on another one', async () => {
  const result = withPairing('work', (p) => p.request({ platform: 'telegram', senderId: '77', senderName: 'Bo', chatId: 'c' }));
  assert.equal(result.kind, 'new');
  const code = result.kind === 'new' ? result.code : '';
  withPairing('default', () => undefined); // the default profile has a store of its own, empty

  const mine = await cli({ argv: ['-p', 'work', 'pairing', 'list'], env });
  assert.match(mine.stdout, new RegExp(code));
  const theirs = await cli({ argv: ['pairing', 'list'], env });
  assert.equal(theirs.stdout, 'no pending pairing requests and no approved senders\n');

  const wrongProfile = await cli({ argv: ['pairing', 'approve', 'telegram', code], env });
  assert.equal(wrongProfile.code, 1, 'a work code is unknown to the default profile');
  assert.equal(withPairing('work', (p) => p.isApproved({ platform: 'telegram', senderId: '77' })), false);

  const byEnv = await cli({ argv: ['pairing', 'approve', 'telegram', code], env: { ...env, HERMES_PROFILE: 'work' } });
  assert.equal(byEnv.code, 0, byEnv.stderr);
  assert.equal(withPairing('work', (p) => p.isApproved({ platform: 'telegram', senderId: '77' })), true);
  assert.equal(withPairing('default', (p) => p.isApproved({ platform: 'telegram', senderId: '77' })), false);
});
