import { JournalRefusedError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/clock.js';

/** How often a message the journal refused is offered again. */
export const refusedRetryMs = 5000;

/** How long a refused message is held in memory before the sender is told to send it again. */
export const refusedHoldMs = 10 * 60_000;

/** Most messages held at once (memory stays bounded while the disk is full). */
export const maxHeldMessages = 100;

/**
 * For platforms that never deliver a message again (Discord; Twilio without retry settings): a message the journal
 * refused (the gateway's disk is full) is held in memory and offered again every `retryMs` until it is taken,
 * `holdMs` passed, the adapter stops, or too many are held. Resolves true once taken (a duplicate counts: the
 * platform redelivered it meanwhile), false when given up (the caller tells the sender); other errors reject.
 */
export class RefusedHold {
  private held = 0;
  private readonly clock: Clock;
  private readonly retryMs: number;
  private readonly holdMs: number;

  constructor(params: { clock: Clock; retryMs?: number; holdMs?: number }) {
    this.clock = params.clock;
    this.retryMs = params.retryMs ?? refusedRetryMs;
    this.holdMs = params.holdMs ?? refusedHoldMs;
  }

  /** Messages held right now. */
  get size(): number {
    return this.held;
  }

  /** Offers `take` again until it stops failing with JournalRefusedError (see the class comment). */
  async retry(params: { take: () => Promise<void>; signal: AbortSignal }): Promise<boolean> {
    if (this.held >= maxHeldMessages) return false;
    this.held += 1;
    const until = this.clock.now() + this.holdMs;
    try {
      while (this.clock.now() < until) {
        try {
          await this.clock.sleep(this.retryMs, params.signal);
        } catch {
          return false;
        }
        try {
          await params.take();
          return true;
        } catch (error) {
          if (!(error instanceof JournalRefusedError)) throw error;
        }
      }
      return false;
    } finally {
      this.held -= 1;
    }
  }
}
