import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH, generatePairingCode, normalizePairingCode } from '../../../src/gateway/intake/pairing/code.js';

describe('pairing codes', () => {
  test('the alphabet has no look-alike characters and no duplicates', () => {
    for (const bad of ['0', 'O', '1', 'I', 'L']) assert.ok(!PAIRING_CODE_ALPHABET.includes(bad), bad);
    assert.equal(new Set(PAIRING_CODE_ALPHABET).size, PAIRING_CODE_ALPHABET.length);
    assert.equal(PAIRING_CODE_ALPHABET.length, 31);
  });

  test('codes are 8 characters from the alphabet, and 2000 of them are all different', () => {
    const seen = new Set<string>();
    const used = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generatePairingCode();
      assert.equal(code.length, PAIRING_CODE_LENGTH);
      assert.match(code, /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
      seen.add(code);
      for (const c of code) used.add(c);
    }
    assert.equal(seen.size, 2000);
    assert.equal(used.size, PAIRING_CODE_ALPHABET.length, 'every character is drawn at some point');
  });

  test('an injected random source picks the characters; out-of-range draws are refused', () => {
    const draws: number[] = [];
    const code = generatePairingCode({
      random: (max) => {
        draws.push(max);
        return draws.length - 1;
      },
    });
    assert.equal(code, PAIRING_CODE_ALPHABET.slice(0, 8));
    assert.deepEqual(draws, Array(8).fill(31));
    assert.throws(() => generatePairingCode({ random: () => 31 }), RangeError);
  });

  test('normalizing removes whitespace and upper-cases', () => {
    assert.equal(normalizePairingCode({ code: ' abcd 2345\t' }), 'ABCD2345');
    assert.equal(normalizePairingCode({ code: 'ABCD2345' }), 'ABCD2345');
  });
});
