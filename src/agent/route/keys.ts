import { createHash } from 'node:crypto';

/** A key's identity in the store and in logs: the first 16 hex digits of its SHA-256 (never the key itself). */
export function keyFingerprint(params: { key: string }): string {
  return createHash('sha256').update(params.key).digest('hex').slice(0, 16);
}

/** A key for display: its first 3 and last 4 characters (`sk-…3f9a`); short keys show only the last 2. */
export function maskKey(params: { key: string }): string {
  const { key } = params;
  if (key.length < 12) return `…${key.slice(-2)}`;
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}
