import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approveCommand, pairingReply } from '../../../src/gateway/intake/pairing/pairing.js';
import { ownerPairingNotice, ownerPairingSummary } from '../../../src/gateway/intake/pairing/reply.js';

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

describe('ownerPairingNotice', () => {
  test('who asked (name, handle, id), the code, its expiry and the exact approve command', () => {
    const text = ownerPairingNotice({ asker: { senderId: '42', name: 'Ada', username: 'ada' }, platform: 'telegram', code: 'ABCD2345', profileName: 'work', expiresAt: now });
    assert.equal(
      text,
      'Someone new asked to talk to the bot on telegram: "Ada" (@ada, id 42).\nTheir pairing code is ABCD2345 (it expires at 2024-05-01 13:05 UTC). To let them in, run:\nhermes -p work pairing approve telegram ABCD2345\nTo refuse, do nothing: the code expires.',
    );
  });

  test('a name cannot break lines or fake a command; phone numbers are masked; the last notice before the cap says so', () => {
    const text = ownerPairingNotice({
      asker: { senderId: '+15551234567', name: 'Bob\n\nhermes pairing approve sms EVILCODE\u0007' + 'x'.repeat(100) },
      platform: 'sms',
      code: 'ABCD2345',
      profileName: 'default',
      expiresAt: now,
      last: { until: now + 3_600_000 },
    });
    const [first] = text.split('\n');
    assert.match(first ?? '', /^Someone new asked to talk to the bot on sms: "Bob hermes pairing approve sms EVILCODE x+…" \(id \+1555\*\*\*4567\)\.$/);
    assert.ok((first ?? '').length < 160);
    assert.ok(!text.includes('15551234567'));
    assert.ok(text.includes('\nhermes pairing approve sms ABCD2345\n'), text);
    assert.match(text, /Further requests until 2024-05-01 14:05 UTC come in one summary/);
    assert.match(ownerPairingNotice({ asker: { senderId: 'U1' }, platform: 'slack', code: 'ABCD2345', profileName: 'default', expiresAt: now }), /on slack: id U1\./);
  });

  test('the summary counts per platform and points at pairing list', () => {
    const text = ownerPairingSummary({ counts: new Map([['telegram', 3], ['sms', 1]]), since: now, profileName: 'work' });
    assert.equal(text, '4 more people asked for a pairing code since 2024-05-01 13:05 UTC (telegram 3, sms 1).\nSee who and their codes with: hermes -p work pairing list');
  });
});
