import { createHash } from 'node:crypto';

/** A key's identity in the store and in logs: the first 16 hex digits of its SHA-256 (never the key itself). */
export function keyFingerprint(params: { key: string }): string {
  return createHash('sha256').update(params.key).digest('hex').slice(0, 16);
}

/** The placeholder key sent to endpoints that need none (local servers); never named as a key in messages. */
export const NO_KEY = 'not-needed';

/**
 * A key for display, never more than a third of it: the first 3 and last 4 characters (`sk-…3f9a`) of a key of 21
 * characters or more; the last 2 of one of 8 to 20; nothing of a shorter one.
 */
export function maskKey(params: { key: string }): string {
  const { key } = params;
  if (key.length < 8) return '…';
  if (key.length <= 20) return `…${key.slice(-2)}`;
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}
