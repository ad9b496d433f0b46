import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Pairing } from '../../../src/gateway/intake/pairing/pairing.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { cli } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

/** Runs `use` against a profile's state.db the way the gateway would, with a clock starting at `start`. */
function asGateway<T>(params: { profile: string; start?: number; use: (pairing: Pairing) => T }): T {
  const dir = params.profile === 'default' ? home : path.join(home, 'profiles', params.profile);
  mkdirSync(dir, { recursive: true });
  const clock = new FakeClock(params.start ?? Date.now());
  const store = openStore({ path: path.join(dir, 'state.db'), clock });
  try {
    return params.use(new Pairing({ store, clock }));
  } finally {
    store.close();
  }
}

/** Creates a request and returns its code. */
function requestCode(params: { profile: string; platform: string; senderId: string; senderName?: string; start?: number }): string {
  return asGateway({
    ...params,
    use: (pairing) => {
      const result = pairing.request({ platform: params.platform, senderId: params.senderId, senderName: params.senderName ?? null, chatId: 'chat' });
      assert.equal(result.kind, 'new');
      return result.kind === 'new' ? result.code : '';
    },
  });
}

describe('hermes pairing', () => {
  test('a profile without a state.db gets a clear error and hint', async () => {
    mkdirSync(path.join(home, 'profiles', 'empty'), { recursive: true });
    const result = await cli({ argv: ['-p', 'empty', 'pairing', 'list'], env });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /error: profile "empty" has no pairing requests yet/);
    assert.match(result.stderr, /hint: .*hermes -p empty gateway run/);
  });

  test('list, approve, list, revoke end to end on a named profile', async () => {
    const code = requestCode({ profile: 'work', platform: 'telegram', senderId: '4242', senderName: 'Ada\u001b[31m' });
    requestCode({ profile: 'work', platform: 'slack', senderId: 'U9' });

    const before = await cli({ argv: ['-p', 'work', 'pairing', 'list'], env });
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^slack:\n {2}pending:\n {4}[A-Z2-9]{8} {2}id U9 {2}expires in 60 min\n {2}approved: none\n/);
    assert.ok(before.stdout.includes(`telegram:\n  pending:\n    ${code}  Ada?[31m (id 4242)  expires in 60 min`), before.stdout);
    assert.ok(!before.stdout.includes('\u001b'), 'terminal escapes from a sender name are not printed');

    const typed = `${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`;
    const approved = await cli({ argv: ['-p', 'work', 'pairing', 'approve', 'Telegram', ...typed.split(' ')], env });
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /^approved Ada\?\[31m \(id 4242\) on telegram: their messages now reach the agent\n$/);
    assert.equal(asGateway({ profile: 'work', use: (p) => p.isApproved({ platform: 'telegram', senderId: '4242' }) }), true);

    const listed = await cli({ argv: ['-p', 'work', 'pairing', 'list', 'telegram'], env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^telegram:\n {2}pending: {2}none\n {2}approved:\n {4}Ada\?\[31m \(id 4242\) {2}since \d{4}-\d\d-\d\dT/);
    assert.ok(!listed.stdout.includes('slack'), listed.stdout);

    const revoked = await cli({ argv: ['-p', 'work', 'pairing', 'revoke', 'telegram', '4242'], env });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked 4242 on telegram/);
    assert.equal(asGateway({ profile: 'work', use: (p) => p.isApproved({ platform: 'telegram', senderId: '4242' }) }), false);

    const again = await cli({ argv: ['-p', 'work', 'pairing', 'revoke', 'telegram', '4242'], env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /error: sender 4242 is not an approved sender on telegram\nhint: .*hermes -p work pairing list/);
  });

  test('unknown and expired codes exit 1 with an error and a hint', async () => {
    const expired = requestCode({ profile: 'default', platform: 'telegram', senderId: 'late', start: Date.now() - 90 * 60_000 });
    requestCode({ profile: 'default', platform: 'telegram', senderId: 'other' });

    const unknown = await cli({ argv: ['pairing', 'approve', 'telegram', 'ZZZZZZZZ'], env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^error: no pending pairing request on telegram has the code ZZZZZZZZ\nhint: .*`hermes pairing list`/);

    const old = await cli({ argv: ['pairing', 'approve', 'telegram', expired], env });
    assert.equal(old.code, 1);
    assert.match(old.stderr, new RegExp(`^error: pairing code ${expired} on telegram has expired\\nhint: Ask the person to message the bot again`));
    assert.equal(asGateway({ profile: 'default', use: (p) => p.isApproved({ platform: 'telegram', senderId: 'late' }) }), false);

    const empty = await cli({ argv: ['pairing', 'list', 'discord'], env });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, 'no pending pairing requests and no approved senders on discord\n');
  });

  test('help lists the pairing commands', async () => {
    const help = await cli({ argv: ['pairing', '--help'], env });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /list[\s\S]*approve[\s\S]*revoke/);
  });
});
