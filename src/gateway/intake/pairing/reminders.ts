import type { Clock } from '../../../core/clock.js';

/** A sender who asks again gets their (same) code repeated at most this often: 10 minutes. */
export const PAIRING_REMINDER_INTERVAL_MS = 600_000;

/** Most senders remembered; the one told longest ago is forgotten first (it would be due again soon anyway). */
const MAX_REMEMBERED = 1000;

/**
 * When a stranger was last sent their pairing code, so asking again repeats it, but not on every message.
 * In memory and bounded (LRU): after a restart a sender may get their code once more, which is harmless.
 */
export class PairingReminders {
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly lastSent = new Map<string, { code: string; at: number }>();

  /** `intervalMs` defaults to `PAIRING_REMINDER_INTERVAL_MS`. */
  constructor(params: { clock: Clock; intervalMs?: number }) {
    this.clock = params.clock;
    this.intervalMs = params.intervalMs ?? PAIRING_REMINDER_INTERVAL_MS;
  }

  /** Whether the sender should be sent `code` now; when it is, records that it was. A new code is always due. */
  due(params: { platform: string; senderId: string; code: string }): boolean {
    const key = `${params.platform}\u0000${params.senderId}`;
    const now = this.clock.now();
    const last = this.lastSent.get(key);
    if (last !== undefined && last.code === params.code && now - last.at < this.intervalMs) return false;
    this.lastSent.delete(key);
    this.lastSent.set(key, { code: params.code, at: now });
    if (this.lastSent.size > MAX_REMEMBERED) {
      const oldest = this.lastSent.keys().next();
      if (!oldest.done) this.lastSent.delete(oldest.value);
    }
    return true;
  }
}
