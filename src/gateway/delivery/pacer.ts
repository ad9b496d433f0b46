import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import { RateLimitError } from '../../core/errors.js';

/** What a ChatPacer is built from. */
export interface ChatPacerParams {
  readonly clock: Clock;
  /** Least time between the completion of one op on a chat and the start of the next. */
  readonly intervalMs: number;
  /** A longer interval for some chats (e.g. Telegram groups allow fewer messages per minute than DMs). */
  readonly intervalFor?: (params: { chatKey: string }) => number | undefined;
  /** How many chats' state is kept; idle ones beyond this are forgotten, least recently used first. */
  readonly maxChats: number;
  /** Consecutive rate limits on one op before its last RateLimitError is thrown (default 5). */
  readonly maxRateLimits?: number;
  /** Added to every retry_after, so the next call lands clearly after the block (default 100 ms). */
  readonly rateLimitMarginMs?: number;
  readonly logger?: Logger;
}

/** One platform call to pace. */
export interface PacedOp<T> {
  /** Chat the call is counted under (one per platform chat). */
  readonly chatKey: string;
  /** The call; invoked again after a rate limit, so it should read the latest state when it runs. */
  readonly op: () => Promise<T>;
  /** Gives up waiting (rejects with the signal's reason) when aborted. */
  readonly signal?: AbortSignal;
  /** False when the op's result says it made no platform call, so no interval is started (default: it did). */
  readonly calledPlatform?: (result: T) => boolean;
}

interface ChatState {
  /** Settles when the chat's last queued op has finished. */
  tail: Promise<void>;
  /** Earliest time the next op may start. */
  readyAt: number;
  /** Ops queued or running. */
  busy: number;
  /** Until when the platform asked us not to call it for this chat (retry_after). */
  rateLimitedUntil: number;
}

/**
 * Paces platform calls per chat: one at a time in FIFO order, each at least `intervalMs` after the previous
 * one completed and never before a rate-limit block has expired. Rate-limited ops are retried transparently.
 */
export class ChatPacer {
  private readonly chats = new Map<string, ChatState>();
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly intervalFor: ((params: { chatKey: string }) => number | undefined) | undefined;
  private readonly maxChats: number;
  private readonly maxRateLimits: number;
  private readonly marginMs: number;
  private readonly logger: Logger | undefined;

  constructor(params: ChatPacerParams) {
    this.clock = params.clock;
    this.intervalMs = params.intervalMs;
    this.intervalFor = params.intervalFor;
    this.maxChats = Math.max(1, params.maxChats);
    this.maxRateLimits = Math.max(1, params.maxRateLimits ?? 5);
    this.marginMs = params.rateLimitMarginMs ?? 100;
    this.logger = params.logger;
  }

  /** Whether the platform's retry_after for this chat has not passed yet: nothing may call it, not even typing. */
  rateLimited(params: { chatKey: string }): boolean {
    return (this.chats.get(params.chatKey)?.rateLimitedUntil ?? 0) > this.clock.now();
  }

  /**
   * Records a rate limit the platform answered to a call made outside `run` (typing): until its retry_after (plus the
   * margin) has passed, `rateLimited` is true and no op of the chat starts.
   */
  hold(params: { chatKey: string; retryAfterMs: number }): void {
    const state = this.chats.get(params.chatKey) ?? { tail: Promise.resolve(), readyAt: 0, busy: 0, rateLimitedUntil: 0 };
    this.chats.delete(params.chatKey);
    this.chats.set(params.chatKey, state);
    const until = this.clock.now() + params.retryAfterMs + this.marginMs;
    state.readyAt = Math.max(state.readyAt, until);
    state.rateLimitedUntil = Math.max(state.rateLimitedUntil, until);
    this.evict();
  }

  /** Number of chats whose state is kept (for tests and metrics). */
  get size(): number {
    return this.chats.size;
  }

  /** Runs `op` for a chat when pacing allows; resolves with its result or rejects with its (non-429) error. */
  run<T>(params: PacedOp<T>): Promise<T> {
    const state = this.acquire({ chatKey: params.chatKey });
    const result = state.tail.then(() => this.execute({ state, ...params }));
    state.tail = result.then(
      () => this.release({ state }),
      () => this.release({ state }),
    );
    return result;
  }

  /** Waits for the chat's turn and block, runs the op, retries it after rate limits. */
  private async execute<T>(params: PacedOp<T> & { state: ChatState }): Promise<T> {
    const { state, signal } = params;
    let rateLimits = 0;
    for (;;) {
      signal?.throwIfAborted();
      const wait = state.readyAt - this.clock.now();
      if (wait > 0) {
        await this.clock.sleep(wait, signal);
        continue;
      }
      try {
        const value = await params.op();
        // A hold that came in while the op ran (a typing call's 429) still stands.
        if (params.calledPlatform?.(value) ?? true) state.readyAt = Math.max(state.rateLimitedUntil, this.clock.now() + this.interval({ chatKey: params.chatKey }));
        return value;
      } catch (error) {
        if (!(error instanceof RateLimitError)) {
          state.readyAt = Math.max(state.rateLimitedUntil, this.clock.now() + this.interval({ chatKey: params.chatKey }));
          throw error;
        }
        rateLimits += 1;
        state.readyAt = Math.max(state.rateLimitedUntil, this.clock.now() + error.retryAfterMs + this.marginMs);
        state.rateLimitedUntil = state.readyAt;
        this.logger?.warn(
          { chatKey: params.chatKey, method: error.method, retryAfterMs: error.retryAfterMs, attempt: rateLimits },
          'rate limited; waiting before trying again',
        );
        if (rateLimits >= this.maxRateLimits) throw error;
      }
    }
  }

  /** The pause after an op on this chat: the configured interval, or the chat's own longer one. */
  private interval(params: { chatKey: string }): number {
    return Math.max(this.intervalMs, this.intervalFor?.(params) ?? 0);
  }

  /** The chat's state, marked busy and moved to the most recently used end. */
  private acquire(params: { chatKey: string }): ChatState {
    const state = this.chats.get(params.chatKey) ?? { tail: Promise.resolve(), readyAt: 0, busy: 0, rateLimitedUntil: 0 };
    this.chats.delete(params.chatKey);
    this.chats.set(params.chatKey, state);
    state.busy += 1;
    this.evict();
    return state;
  }

  /** Marks one op of a chat finished. */
  private release(params: { state: ChatState }): void {
    params.state.busy -= 1;
    this.evict();
  }

  /** Forgets least recently used chats beyond the bound; a chat that is busy or still blocked is kept. */
  private evict(): void {
    const now = this.clock.now();
    for (const [key, state] of this.chats) {
      if (this.chats.size <= this.maxChats) return;
      if (state.busy === 0 && state.readyAt <= now) this.chats.delete(key);
    }
  }
}
