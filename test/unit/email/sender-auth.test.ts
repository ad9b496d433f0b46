import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSender, parseAuthResults } from '../../../adapters/email/sender-auth.js';

/** Header lines the way mailparser's headerLines gives them. */
function lines(...values: string[]): { key: string; line: string }[] {
  return values.map((value) => ({ key: 'authentication-results', line: `Authentication-Results: ${value}` }));
}

const gmail = 'mx.google.com;\r\n       dkim=pass header.i=@example.com header.s=s1 header.b=abc;\r\n       spf=pass (google.com: domain of alice@example.com designates 192.0.2.1 as permitted sender) smtp.mailfrom=alice@example.com;\r\n       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.com';

describe('parseAuthResults', () => {
  test('reads the server id and each method, comments and folding removed', () => {
    const parsed = parseAuthResults({ value: gmail });
    assert.equal(parsed?.authservId, 'mx.google.com');
    assert.deepEqual(parsed?.results.map((r) => `${r.method}=${r.result}`), ['dkim=pass', 'spf=pass', 'dmarc=pass']);
    assert.equal(parsed?.results[1]?.props.get('smtp.mailfrom'), 'alice@example.com');
  });

  test('a header without a server id, or with junk, yields no results rather than an error', () => {
    assert.equal(parseAuthResults({ value: '   ' }), undefined);
    assert.deepEqual(parseAuthResults({ value: 'mx.example.net; none' })?.results, []);
    assert.deepEqual(parseAuthResults({ value: 'mx.example.net 1; dkim=pass (unclosed comment header.d=evil.com' })?.results.map((r) => r.method), ['dkim']);
  });
});

describe('checkSender', () => {
  test('DMARC, aligned DKIM or aligned SPF pass from the receiving server verify the sender', () => {
    assert.deepEqual(checkSender({ headerLines: lines(gmail), from: 'Alice@Example.com' }), { verified: true, via: 'dmarc=pass by mx.google.com' });
    const dkim = checkSender({ headerLines: lines('mx.fastmail.com; dkim=pass header.d=mail.example.com; spf=fail smtp.mailfrom=x@other.net'), from: 'alice@example.com' });
    assert.deepEqual(dkim, { verified: true, via: 'dkim=pass (mail.example.com) by mx.fastmail.com' });
    const spf = checkSender({ headerLines: lines('mx.fastmail.com; spf=pass smtp.mailfrom=bounce@example.com'), from: 'alice@example.com' });
    assert.equal(spf.verified, true);
  });

  test('a pass for some other domain does not vouch for the From address', () => {
    const result = checkSender({ headerLines: lines('mx.google.com; dkim=pass header.d=attacker.net; spf=pass smtp.mailfrom=x@attacker.net; dmarc=fail header.from=example.com'), from: 'alice@example.com' });
    assert.equal(result.verified, false);
    assert.match(result.verified ? '' : result.reason, /example\.com is not authenticated by mx\.google\.com \(dkim=pass spf=pass dmarc=fail\)/);
    assert.equal(checkSender({ headerLines: lines('mx.google.com; dkim=pass header.d=notexample.com'), from: 'alice@example.com' }).verified, false);
  });

  test('only the topmost header counts: a forged pass lower down (written by the sender) is ignored', () => {
    const forged = lines('mx.google.com; dkim=fail header.d=example.com; spf=softfail smtp.mailfrom=example.com; dmarc=fail header.from=example.com', 'mx.google.com; dmarc=pass header.from=example.com');
    assert.equal(checkSender({ headerLines: forged, from: 'alice@example.com' }).verified, false);
  });

  test('with a trusted server named, only its headers count', () => {
    const headerLines = lines('mx.google.com; dmarc=pass header.from=example.com', 'spoof.example.org; dmarc=fail header.from=example.com');
    assert.deepEqual(checkSender({ headerLines, from: 'alice@example.com', trustedServer: 'MX.Google.com' }), { verified: true, via: 'dmarc=pass by mx.google.com' });
    const none = checkSender({ headerLines: lines('spoof.example.org; dmarc=pass header.from=example.com'), from: 'alice@example.com', trustedServer: 'mx.google.com' });
    assert.deepEqual(none, { verified: false, reason: 'no Authentication-Results header from mx.google.com' });
  });

  test('trusted server: a forged pass with its id lower down (below the sender\'s own headers) does not count against its fail on top', () => {
    const headerLines = [
      ...lines('mx.hermes.test; dmarc=fail header.from=example.com'),
      { key: 'received', line: 'Received: from evil.example.net by mx.hermes.test' },
      { key: 'from', line: 'From: alice@example.com' },
      ...lines('mx.hermes.test; dmarc=pass header.from=example.com'),
    ];
    const result = checkSender({ headerLines, from: 'alice@example.com', trustedServer: 'mx.hermes.test' });
    assert.deepEqual(result, { verified: false, reason: 'example.com is not authenticated by mx.hermes.test (dmarc=fail)' });
  });

  test('trusted server: only the topmost contiguous run counts; a header from elsewhere, or one without an id, ends it', () => {
    const below = lines('mx.hermes.test; spf=none', 'relay.example.net; spf=pass smtp.mailfrom=x@example.net', 'mx.hermes.test; dmarc=pass header.from=example.com');
    const afterForeign = checkSender({ headerLines: below, from: 'alice@example.com', trustedServer: 'mx.hermes.test' });
    assert.deepEqual(afterForeign, { verified: false, reason: 'example.com is not authenticated by mx.hermes.test (spf=none)' });
    const belowMessage = [
      ...lines('mx.hermes.test; dmarc=none header.from=example.com'),
      { key: 'subject', line: 'Subject: hi' },
      ...lines('mx.hermes.test; dkim=pass header.d=example.com'),
    ];
    assert.equal(checkSender({ headerLines: belowMessage, from: 'alice@example.com', trustedServer: 'mx.hermes.test' }).verified, false, 'a field the message was written with ends the run');
    const gap = lines('mx.hermes.test; spf=none', '', 'mx.hermes.test; dmarc=pass header.from=example.com');
    assert.equal(checkSender({ headerLines: gap, from: 'alice@example.com', trustedServer: 'mx.hermes.test' }).verified, false);
    const onTop = checkSender({ headerLines: lines('spoof.example.org; none', 'mx.google.com; dmarc=pass header.from=example.com'), from: 'alice@example.com', trustedServer: 'mx.google.com' });
    assert.deepEqual(onTop, {
      verified: false,
      reason: 'the topmost Authentication-Results header is from spoof.example.org, not mx.google.com; headers from mx.google.com below it were not added by your server',
    });
  });

  test('trusted server: several headers of its top run count together, with other fields between them (opendkim + opendmarc)', () => {
    const headerLines = [
      { key: 'dmarc-filter', line: 'DMARC-Filter: OpenDMARC Filter v1.4.2 mx.hermes.test 4AB2C' },
      ...lines('mx.hermes.test; dmarc=none (p=none dis=none) header.from=example.com'),
      { key: 'dkim-filter', line: 'DKIM-Filter: OpenDKIM Filter v2.11.0 mx.hermes.test 4AB2C' },
      ...lines('mx.hermes.test; dkim=pass (2048-bit key) header.d=example.com'),
      { key: 'received', line: 'Received: from mail.example.com by mx.hermes.test' },
    ];
    assert.deepEqual(checkSender({ headerLines, from: 'alice@example.com', trustedServer: 'mx.hermes.test' }), { verified: true, via: 'dkim=pass (example.com) by mx.hermes.test' });
  });

  test('a DMARC fail in the headers that count wins over any pass beside it (a forged header right below the real one)', () => {
    const adjacent = lines('mx.hermes.test; dmarc=fail header.from=example.com', 'mx.hermes.test; dkim=pass header.d=example.com; dmarc=pass header.from=example.com');
    assert.equal(checkSender({ headerLines: adjacent, from: 'alice@example.com', trustedServer: 'mx.hermes.test' }).verified, false);
    const strict = lines('mx.google.com; dkim=pass header.d=mail.example.com; dmarc=fail (p=REJECT) header.from=example.com');
    assert.equal(checkSender({ headerLines: strict, from: 'alice@example.com' }).verified, false);
    const otherDomain = lines('mx.google.com; dkim=pass header.d=example.com; dmarc=fail header.from=other.example.net');
    assert.equal(checkSender({ headerLines: otherDomain, from: 'alice@example.com' }).verified, true);
  });

  test('trusted server: a forged header right below the real one cannot overturn a method the real one reported (dkim=fail, spf=fail, dmarc=none, then a forged dkim=pass)', () => {
    const adjacent = [
      ...lines('mx.hermes.test; dkim=fail header.d=example.com; spf=fail smtp.mailfrom=alice@example.com; dmarc=none header.from=example.com'),
      { key: 'received', line: 'Received: from evil.example.net by mx.hermes.test' },
      ...lines('mx.hermes.test; dkim=pass header.d=example.com; spf=pass smtp.mailfrom=alice@example.com'),
      { key: 'from', line: 'From: alice@example.com' },
    ];
    const result = checkSender({ headerLines: adjacent, from: 'alice@example.com', trustedServer: 'mx.hermes.test' });
    assert.deepEqual(result, { verified: false, reason: 'example.com is not authenticated by mx.hermes.test (dkim=fail spf=fail dmarc=none)' });
    // Several headers of the real run still add up when each reports its own methods (opendkim, then opendmarc).
    const milters = lines('mx.hermes.test; dmarc=none header.from=example.com', 'mx.hermes.test; dkim=pass header.d=example.com');
    assert.equal(checkSender({ headerLines: milters, from: 'alice@example.com', trustedServer: 'mx.hermes.test' }).verified, true);
  });

  test('no header at all is unverified, with a reason that says so', () => {
    const result = checkSender({ headerLines: [{ key: 'received', line: 'Received: from x' }], from: 'alice@example.com' });
    assert.deepEqual(result, { verified: false, reason: 'no Authentication-Results header (your mail server did not check DKIM/SPF)' });
    assert.equal(checkSender({ headerLines: lines(gmail), from: '' }).verified, false);
  });
});
