import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approveCommand, pairingReply } from '../../../src/gateway/pairing.js';

const now = Date.UTC(2024, 4, 1, 13, 5);

describe('pairingReply', () => {
  test('names the code, the approve command for a named profile, and when it expires', () => {
    const text = pairingReply({ code: 'ABCD2345', platform: 'telegram', profileName: 'work', expiresAt: now + 3_600_000, now });
    assert.match(text, /ABCD2345/);
    assert.ok(text.includes('hermes -p work pairing approve telegram ABCD2345'), text);
    assert.match(text, /expires in 60 minutes \(2024-05-01 14:05 UTC\)/);
    assert.match(text, /message me again/);
  });

  test('the default profile needs no -p; without now the expiry is an absolute time', () => {
    const text = pairingReply({ code: 'ZZZZ9999', platform: 'slack', profileName: 'default', expiresAt: now });
    assert.ok(text.includes('hermes pairing approve slack ZZZZ9999'), text);
    assert.ok(!text.includes(' -p '), text);
    assert.match(text, /expires at 2024-05-01 13:05 UTC/);
  });

  test('short and long waits read naturally', () => {
    const soon = pairingReply({ code: 'A', platform: 'sms', profileName: 'default', expiresAt: now + 30_000, now });
    assert.match(soon, /in 1 minute \(/);
    const later = pairingReply({ code: 'A', platform: 'sms', profileName: 'default', expiresAt: now + 6 * 3_600_000, now });
    assert.match(later, /in 6 hours \(/);
    assert.equal(approveCommand({ platform: 'email', code: 'X', profileName: 'personal' }), 'hermes -p personal pairing approve email X');
  });
});
