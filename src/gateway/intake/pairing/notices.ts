import type { Logger } from 'pino';
import type { Clock } from '../../../core/clock.js';
import { ownerPairingNotice, ownerPairingSummary, type PairingAsker } from './reply.js';

/** Notices about pairing requests the owner gets one by one within `NOTICE_WINDOW_MS`; the rest are summed up. */
export const MAX_NOTICES_PER_WINDOW = 5;

/** The window the notice cap counts over: one hour. */
export const NOTICE_WINDOW_MS = 3_600_000;

/** Sends a text to the owner's chat, preferring the platform given; false when no owner chat is known. */
export type DeliverToOwner = (params: { platform: string; text: string; what: string }) => boolean;

/** A new pairing request to tell the owner about. */
export interface NewPairingRequest {
  /** The platform the stranger wrote on. */
  readonly platform: string;
  /** Their new code. */
  readonly code: string;
  /** When it expires (ms since the epoch). */
  readonly expiresAt: number;
  /** Who they are, as the platform names them. */
  readonly asker: PairingAsker;
}

/**
 * Tells the owner in their chat when a stranger gets a pairing code, once per code (callers pass only new codes).
 * Bounded so strangers cannot flood the owner: at most `MAX_NOTICES_PER_WINDOW` notices in a window that starts
 * with the first one; the last of them says so, and requests after it are counted and sent as one summary when
 * the window ends (`hermes pairing list` shows them all). So the owner gets at most max + 1 messages an hour.
 */
export class PairingNotices {
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly signal: AbortSignal;
  private readonly deliver: DeliverToOwner;
  private readonly profileName: () => string;
  private readonly max: number;
  private readonly windowMs: number;
  private windowStart: number | undefined;
  private sent = 0;
  /** Requests not told one by one in this window, by platform. */
  private readonly held = new Map<string, number>();
  private summaryDue = false;

  /** `signal` cancels a summary still waiting for its window to end (the gateway stops). */
  constructor(params: {
    clock: Clock;
    logger: Logger;
    signal: AbortSignal;
    deliver: DeliverToOwner;
    profileName: () => string;
    maxPerWindow?: number;
    windowMs?: number;
  }) {
    this.clock = params.clock;
    this.logger = params.logger;
    this.signal = params.signal;
    this.deliver = params.deliver;
    this.profileName = params.profileName;
    this.max = params.maxPerWindow ?? MAX_NOTICES_PER_WINDOW;
    this.windowMs = params.windowMs ?? NOTICE_WINDOW_MS;
  }

  /** Tells the owner of a new code, or holds it for the window's summary when the cap is reached. */
  told(params: { request: NewPairingRequest }): void {
    const { request } = params;
    const now = this.clock.now();
    if (this.windowStart === undefined || (now >= this.windowStart + this.windowMs && !this.summaryDue)) {
      this.windowStart = now;
      this.sent = 0;
    }
    const windowEnd = this.windowStart + this.windowMs;
    if (this.sent >= this.max) {
      this.held.set(request.platform, (this.held.get(request.platform) ?? 0) + 1);
      this.logger.info({ platform: request.platform, held: this.held.get(request.platform) }, 'pairing request not told to the owner one by one: notice cap reached, it goes in the summary');
      this.scheduleSummary({ at: windowEnd });
      return;
    }
    const last = this.sent + 1 === this.max ? { until: windowEnd } : undefined;
    const text = ownerPairingNotice({ ...request, profileName: this.profileName(), ...(last ? { last } : {}) });
    if (this.deliver({ platform: request.platform, text, what: 'pairing notice to the owner' })) {
      this.sent += 1;
      return;
    }
    this.logger.info({ platform: request.platform }, "pairing request not told to the owner: no chat of theirs is known yet (they write to the bot once from a DM to get notices); `hermes pairing list` shows it");
  }

  private scheduleSummary(params: { at: number }): void {
    if (this.summaryDue) return;
    this.summaryDue = true;
    this.clock.sleep(params.at - this.clock.now(), this.signal).then(
      () => this.sendSummary(),
      () => {
        this.summaryDue = false;
      },
    );
  }

  private sendSummary(): void {
    this.summaryDue = false;
    const since = this.windowStart ?? this.clock.now();
    const counts = new Map(this.held);
    this.held.clear();
    this.windowStart = undefined;
    const [platform] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (platform === undefined) return;
    const text = ownerPairingSummary({ counts, since, profileName: this.profileName() });
    if (!this.deliver({ platform, text, what: 'pairing summary to the owner' })) {
      this.logger.info({ platform }, 'pairing summary not sent: no chat of the owner is known');
    }
  }
}
