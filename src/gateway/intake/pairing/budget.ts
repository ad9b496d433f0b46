import type { Clock } from '../../../core/clock.js';

/**
 * Pairing replies to strangers one platform sends per window: generous for a personal bot (pairing never stalls
 * at a handful of strangers), but a bound, because on SMS every reply is a paid text and a flood of numbers
 * could otherwise run up the owner's bill.
 */
export const MAX_STRANGER_REPLIES_PER_WINDOW = 30;

/** The window the reply budget counts over: one hour, starting with its first reply. */
export const STRANGER_REPLY_WINDOW_MS = 3_600_000;

/** What the budget says about one more reply to a stranger. */
export type StrangerReplyVerdict =
  /** Send it. */
  | { readonly kind: 'send' }
  /** Do not send it; `first` is true for the first refusal of the window (tell the owner then), `until` when replies resume. */
  | { readonly kind: 'refuse'; readonly first: boolean; readonly until: number };

/** Counts pairing replies to strangers per platform, in windows of `windowMs` (in memory: a restart starts afresh). */
export class StrangerReplyBudget {
  private readonly clock: Clock;
  private readonly max: number;
  private readonly windowMs: number;
  /** One entry per platform that replied this window (a handful at most). */
  private readonly windows = new Map<string, { start: number; sent: number; refused: number }>();

  /** `max` and `windowMs` default to MAX_STRANGER_REPLIES_PER_WINDOW and STRANGER_REPLY_WINDOW_MS. */
  constructor(params: { clock: Clock; max?: number; windowMs?: number }) {
    this.clock = params.clock;
    this.max = params.max ?? MAX_STRANGER_REPLIES_PER_WINDOW;
    this.windowMs = params.windowMs ?? STRANGER_REPLY_WINDOW_MS;
  }

  /** Takes one reply from `platform`'s budget, or says it is spent (and until when). */
  take(params: { platform: string }): StrangerReplyVerdict {
    const now = this.clock.now();
    let window = this.windows.get(params.platform);
    if (window === undefined || now >= window.start + this.windowMs) {
      window = { start: now, sent: 0, refused: 0 };
      this.windows.set(params.platform, window);
    }
    if (window.sent < this.max) {
      window.sent += 1;
      return { kind: 'send' };
    }
    window.refused += 1;
    return { kind: 'refuse', first: window.refused === 1, until: window.start + this.windowMs };
  }
}
