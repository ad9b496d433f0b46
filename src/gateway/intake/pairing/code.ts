import { randomInt } from 'node:crypto';

/** Characters a pairing code is made of: upper case and digits without the look-alikes 0/O, 1/I/L. */
export const PAIRING_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** How many characters a pairing code has (31^8, about 8.5e11 codes). */
export const PAIRING_CODE_LENGTH = 8;

/** Draws a whole number in [0, max); `crypto.randomInt` unless a test passes its own. */
export type RandomInt = (max: number) => number;

/** A fresh random pairing code. */
export function generatePairingCode(params: { random?: RandomInt } = {}): string {
  const random = params.random ?? ((max: number) => randomInt(max));
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) {
    const index = random(PAIRING_CODE_ALPHABET.length);
    const char = PAIRING_CODE_ALPHABET[index];
    if (char === undefined) throw new RangeError(`random(${PAIRING_CODE_ALPHABET.length}) returned ${index}, outside [0, ${PAIRING_CODE_ALPHABET.length})`);
    code += char;
  }
  return code;
}

/** A code as the owner typed it, in stored form: whitespace removed, upper case. */
export function normalizePairingCode(params: { code: string }): string {
  return params.code.replace(/\s+/g, '').toUpperCase();
}
