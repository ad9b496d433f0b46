import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** Format tag of a fingerprint: scrypt, N=2^14, r=8, p=1, 32-byte hash. */
const TAG = 'scrypt1';
const KEY_LENGTH = 32;

/** scrypt as a promise (the callback form, so the event loop keeps running while it works). */
function derive(params: { input: string; salt: Buffer }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(params.input, params.salt, KEY_LENGTH, { N: 16384, r: 8, p: 1 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The secret set as one string: order and repeats do not matter. */
function canonical(params: { secrets: readonly string[] }): string {
  return [...new Set(params.secrets)].sort().join('\u0000');
}

/**
 * A salted, slow hash of a profile's secret set ("scrypt1:<salt>:<hash>", hex): safe to keep in the store, it tells
 * whether the set changed without holding any secret.
 */
export async function secretSetFingerprint(params: { secrets: readonly string[] }): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive({ input: canonical(params), salt });
  return `${TAG}:${salt.toString('hex')}:${hash.toString('hex')}`;
}

/** Whether `fingerprint` (from secretSetFingerprint) was made from this same secret set; false for anything malformed. */
export async function fingerprintMatches(params: { secrets: readonly string[]; fingerprint: string }): Promise<boolean> {
  const [tag, saltHex, hashHex] = params.fingerprint.split(':');
  if (tag !== TAG || saltHex === undefined || hashHex === undefined || !/^[0-9a-f]{32}$/.test(saltHex) || !/^[0-9a-f]{64}$/.test(hashHex)) return false;
  const hash = await derive({ input: canonical(params), salt: Buffer.from(saltHex, 'hex') });
  return timingSafeEqual(hash, Buffer.from(hashHex, 'hex'));
}
