import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Format tag of a fingerprint: PBKDF2-HMAC-SHA256, ITERATIONS rounds, 32-byte hash. */
const TAG = 'pbkdf2-sha256-1';
const KEY_LENGTH = 32;
const ITERATIONS = 60_000;

/**
 * The slow salted hash, computed on this thread (some tens of ms, once per start or reload): the thread-pool form
 * (crypto.scrypt) kept test processes with discord.js from exiting.
 */
async function derive(params: { input: string; salt: Buffer }): Promise<Buffer> {
  return pbkdf2Sync(params.input, params.salt, ITERATIONS, KEY_LENGTH, 'sha256');
}

/** The secret set as one string: order and repeats do not matter. */
function canonical(params: { secrets: readonly string[] }): string {
  return [...new Set(params.secrets)].sort().join('\u0000');
}

/**
 * A salted, slow hash of a profile's secret set ("pbkdf2-sha256-1:<salt>:<hash>", hex): safe to keep in the store, it tells
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
