import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of milliseconds then random bits, so ids sort by creation time
 * and stay unique across processes.
 */
export function newSessionId(params: { now: number }): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(params.now)) % 2 ** 48, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The part of a session id people see: its last 8 hex digits (random, unlike the time-ordered start). */
export function shortSessionId(params: { id: string }): string {
  return params.id.replace(/-/g, '').slice(-8);
}
