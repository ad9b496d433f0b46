import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { automatedReason, rawHeaders } from '../../../adapters/email/automated.js';

/** Headers as mailparser's headerLines give them. */
function headers(entries: Record<string, string>): ReturnType<typeof rawHeaders> {
  return rawHeaders({ lines: Object.entries(entries).map(([key, value]) => ({ key: key.toLowerCase(), line: `${key}: ${value}` })) });
}

const own = 'bot@example.com';

describe('automatedReason', () => {
  test('a person\'s mail passes (Auto-Submitted: no included)', () => {
    assert.equal(automatedReason({ headers: headers({}), from: 'alice@example.org', ownAddress: own }), undefined);
    assert.equal(automatedReason({ headers: headers({ 'Auto-Submitted': 'no' }), from: 'alice@example.org', ownAddress: own }), undefined);
    assert.equal(automatedReason({ headers: headers({ Precedence: 'first-class' }), from: 'replyguy@example.org', ownAddress: own }), undefined);
  });

  test('Auto-Submitted other than "no", Precedence bulk/list/junk and list headers are machine mail', () => {
    for (const value of ['auto-replied', 'auto-generated', 'auto-notified; owner-email="x@y"']) {
      assert.match(automatedReason({ headers: headers({ 'Auto-Submitted': value }), from: 'a@b.c', ownAddress: own }) ?? '', /Auto-Submitted/);
    }
    for (const value of ['bulk', 'List', 'junk']) assert.match(automatedReason({ headers: headers({ Precedence: value }), from: 'a@b.c', ownAddress: own }) ?? '', /Precedence/);
    assert.match(automatedReason({ headers: headers({ 'List-Unsubscribe': '<mailto:u@x>' }), from: 'a@b.c', ownAddress: own }) ?? '', /List-Unsubscribe/);
    assert.match(automatedReason({ headers: headers({ 'List-Id': '<team.x>' }), from: 'a@b.c', ownAddress: own }) ?? '', /List-Id/);
  });

  test('bounces and reports (null Return-Path, multipart/report) and Precedence: auto_reply are machine mail', () => {
    const from = 'alice@example.org';
    assert.match(automatedReason({ headers: headers({ 'Return-Path': '<>' }), from, ownAddress: own }) ?? '', /Return-Path/);
    assert.match(automatedReason({ headers: headers({ 'Content-Type': 'multipart/report; report-type=disposition-notification; boundary="b"' }), from, ownAddress: own }) ?? '', /report/);
    assert.match(automatedReason({ headers: headers({ Precedence: 'auto_reply' }), from, ownAddress: own }) ?? '', /Precedence/);
    assert.equal(automatedReason({ headers: headers({ 'Return-Path': '<alice@example.org>', 'Content-Type': 'multipart/mixed; boundary="b"' }), from, ownAddress: own }), undefined);
  });

  test('robot senders and the bot itself (any case) are never answered', () => {
    for (const from of ['noreply@x.org', 'no-reply@x.org', 'No_Reply+tag@x.org', 'donotreply@x.org', 'MAILER-DAEMON@x.org', 'postmaster@x.org', 'bounces@x.org']) {
      assert.ok(automatedReason({ headers: headers({}), from, ownAddress: own }), from);
    }
    assert.match(automatedReason({ headers: headers({}), from: 'Bot@Example.com', ownAddress: own }) ?? '', /this bot/);
    assert.ok(automatedReason({ headers: headers({}), from: '', ownAddress: own }));
  });

  test('folded header values are read whole', () => {
    const map = rawHeaders({ lines: [{ key: 'auto-submitted', line: 'Auto-Submitted:\r\n auto-replied' }] });
    assert.equal(map.get('auto-submitted'), 'auto-replied');
  });
});
