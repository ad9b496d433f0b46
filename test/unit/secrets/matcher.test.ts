import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SecretMatcher } from '../../../src/secrets/matcher.js';

const token = '7000000002:RELSECtgTOKEN000Zq8Wm3Xr5Tb7Yn2Pk9';
const key = 'sk-proj-4fT9qLm2Zx8Rv1Nc6Wb3';
const short = 'hunter2';
const matcher = new SecretMatcher({ secrets: [token, key, short] });
const scrub = (text: string): string => matcher.scrub({ text });
const env = `TELEGRAM_BOT_TOKEN=${token}\nOPENAI_API_KEY=${key}\n`;

describe('SecretMatcher.scrub finds secrets by content', () => {
  const hex = Buffer.from(env).toString('hex');
  const forms: Record<string, string> = {
    raw: env,
    'JSON-escaped': JSON.stringify({ env }),
    'separated by spaces (sed s/./& /g)': env.replace(/./g, '$& '),
    'separated by newlines': [...token].join('\n'),
    'separated by dashes': [...key].join('-'),
    'reversed (rev)': env.split('\n').map((line) => [...line].reverse().join('')).join('\n'),
    'reversed and separated': [...token].reverse().join(' . '),
    'base64 -w0': Buffer.from(env).toString('base64'),
    'base64 at another byte alignment': Buffer.from(`xy${env}`).toString('base64'),
    'base64 wrapped at 76': (Buffer.from(env).toString('base64').match(/.{1,76}/g) ?? []).join('\n'),
    base64url: Buffer.from(`z${env}`).toString('base64url'),
    'hex (xxd -p)': hex,
    'HEX upper case': hex.toUpperCase(),
    'hex pairs with spaces': (hex.match(/../g) ?? []).join(' '),
    '\\x escapes': (hex.match(/../g) ?? []).map((pair) => `\\x${pair}`).join(''),
    '0x bytes': (hex.match(/../g) ?? []).map((pair) => `0x${pair}`).join(', '),
    'percent-encoded (all bytes)': (hex.match(/../g) ?? []).map((pair) => `%${pair}`).join(''),
    encodeURIComponent: encodeURIComponent(env),
    'base64 of hex': Buffer.from(hex).toString('base64'),
    'UTF-16 bytes': Buffer.from(env, 'utf16le').toString('latin1'),
  };
  for (const [name, text] of Object.entries(forms)) {
    test(name, () => {
      const out = scrub(text);
      assert.ok(out.includes('***'), `nothing masked in ${JSON.stringify(out.slice(0, 120))}`);
      for (const piece of ['RELSECtgTOKEN', 'Zq8Wm3Xr5Tb7', '4fT9qLm2Zx8R']) {
        for (const candidate of [out, out.replace(/[^A-Za-z0-9]/g, ''), [...out].reverse().join('')]) assert.ok(!candidate.includes(piece), `${piece} survived: ${out.slice(0, 200)}`);
      }
    });
  }

  test('the rest of the text stays as it was', () => {
    assert.equal(scrub(env), 'TELEGRAM_BOT_TOKEN=***\nOPENAI_API_KEY=***\n');
    assert.equal(scrub(env.replace(/./g, '$& ')), 'T E L E G R A M _ B O T _ T O K E N = *** \nO P E N A I _ A P I _ K E Y = *** \n');
    assert.match(scrub(Buffer.from(env).toString('base64')), /^VEVMRUdSQU1fQk9UX1RPS0VO.*\*\*\*/);
  });

  test('a partial copy of 8 or more consecutive characters is masked, with or without separators', () => {
    assert.equal(scrub('the start sk-proj-4fT is part of the key'), 'the start *** is part of the key');
    assert.equal(scrub('keys look like sk-proj-...'), 'keys look like sk-proj-...', 'a run that reads like a word is not a piece on its own');
    assert.equal(scrub('piece: RELSECtgTOK.'), 'piece: ***.');
    assert.equal(scrub('piece: 4 f T 9 q L m 2 !'), 'piece: *** !');
    assert.equal(scrub('raw run with a separator: 02:RELSE'), 'raw run with a separator: ***');
    assert.equal(scrub('seven: RELSECt'), 'seven: RELSECt', 'fewer than 8 characters are not a copy');
  });

  test('a short secret is matched whole (as it is or reversed), never spread out or partially', () => {
    assert.equal(scrub('pw hunter2, 2retnuh'), 'pw ***, ***');
    assert.equal(scrub('the hunter 2 and hunter'), 'the hunter 2 and hunter');
  });

  test('ordinary text is left alone: prose, numbers, dates, hashes, URLs, unrelated base64 and hex', () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog. Deploy the server at 09:15, then check the token count.',
      '1700000000000 70000000 0x7000000002 2026-12-01T07:15:00.000Z 000000000000',
      'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'https://example.com/path?q=a%20b&c=%3D%3D#frag',
      'SGVsbG8sIHdvcmxkISBUaGlzIGlzIGEgdGVzdCBvZiBiYXNlNjQu',
      'const config = { token: process.env.TOKEN, retries: 3 }; // sk-...',
      'naïve café — 東京 ✓',
    ];
    for (const text of texts) assert.equal(scrub(text), text);
  });

  test('contains and an empty matcher', () => {
    assert.ok(matcher.contains({ text: Buffer.from(token).toString('base64') }));
    assert.ok(!matcher.contains({ text: 'nothing here' }));
    const empty = new SecretMatcher({ secrets: [] });
    assert.ok(empty.isEmpty);
    assert.equal(empty.scrub({ text: token }), token);
    assert.equal(empty.safeLength({ text: token }), token.length);
  });

  test('a secret with non-ASCII characters is found as it is and in its UTF-8 bytes (base64, hex)', () => {
    const m = new SecretMatcher({ secrets: ['pässwörd-ßecret-ünicode'] });
    assert.equal(m.scrub({ text: 'pw pässwörd-ßecret-ünicode!' }), 'pw ***!');
    assert.ok(m.contains({ text: Buffer.from('pässwörd-ßecret-ünicode').toString('base64') }));
    assert.ok(m.contains({ text: Buffer.from('pässwörd-ßecret-ünicode').toString('hex') }));
  });
});

describe('SecretMatcher.safeLength holds back what could still become a secret', () => {
  const safe = (text: string): string => text.slice(0, matcher.safeLength({ text }));

  test('the start of a secret at the end is held until it is masked', () => {
    assert.equal(safe('the token is 7000'), 'the token is ');
    assert.equal(safe('the token is 7000000002:REL'), 'the token is ');
    assert.equal(safe('the token is 7 0 0 0 0 0 0 0 0 2 :'), 'the token is ');
    assert.equal(safe('reversed 9kP2nY7bT'), 'reversed ');
  });

  test('it is released when the following text proves it is not one', () => {
    assert.ok(safe('the token is 7000 and more text!').startsWith('the token is 7000 and more '));
  });

  test('a base64 or hex run at the end that decodes to the start of a secret is held, and the start of a short secret', () => {
    assert.equal(safe(`blob: ${Buffer.from(key.slice(0, 6)).toString('base64')}`), 'blob: ');
    assert.equal(safe(`bytes: ${(Buffer.from(key.slice(0, 5)).toString('hex').match(/../g) ?? []).join(' ')} `), 'bytes: ');
    assert.equal(safe('blob: VEVMRUdSQU1f'), 'blob: VEVMRUdSQU1f', 'base64 of something else is shown');
    assert.equal(safe('a short word at the end: answer'), 'a short word at the end: answer');
    assert.equal(safe('pw: hunt'), 'pw: ');
  });

  test('a masked secret reaching into the held end is held whole, so nothing shown is taken back', () => {
    const text = `key ${token.slice(0, 20)}`;
    const shown = safe(text);
    assert.equal(shown, 'key ');
    for (let i = 1; i <= token.length; i++) {
      const prefix = `key ${token.slice(0, i)}`;
      const now = matcher.scrub({ text: safe(prefix) });
      assert.ok(!/RELSEC|Zq8W|7000/.test(now), `${JSON.stringify(now)} shows a piece`);
    }
    assert.equal(matcher.scrub({ text: safe(`key ${token} done!`) }), 'key *** done!');
  });
});
