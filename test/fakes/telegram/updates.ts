import type { Update } from 'grammy/types';
import type { Clock } from '../../../src/core/clock.js';

/** The update types delivered when allowed_updates is empty or was never set. */
const OPT_IN_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

/** What a getUpdates call ends with. */
export type PollResult =
  | { kind: 'updates'; updates: Update[] }
  /** A newer getUpdates request replaced this one (Telegram answers it 409). */
  | { kind: 'conflict' }
  /** The client went away before anything was answered. */
  | { kind: 'aborted' };

interface Waiter {
  /** Re-checks the queue after a push. */
  wake(): void;
  /** Ends the poll with the given result. */
  end(result: PollResult): void;
}

/**
 * The bot's pending updates and the getUpdates long poll over them, with Telegram's semantics:
 * `offset` confirms every lower update_id, a negative offset keeps only the last -offset updates,
 * an open poll answers as soon as an update arrives, and a second concurrent poll terminates the first.
 */
export class UpdateQueue {
  private readonly clock: Clock;
  private readonly onChange: () => void;
  private queue: Update[] = [];
  private nextId: number;
  private allowed: string[] = [];
  private readonly waiters = new Set<Waiter>();

  constructor(params: { clock: Clock; firstUpdateId: number; onChange: () => void }) {
    this.clock = params.clock;
    this.nextId = params.firstUpdateId;
    this.onChange = params.onChange;
  }

  /** Open getUpdates requests right now. */
  get pollers(): number {
    return this.waiters.size;
  }

  /** Updates not yet confirmed by an offset. */
  get pending(): number {
    return this.queue.length;
  }

  /** The allowed_updates setting last sent with getUpdates or setWebhook ([] means the default set). */
  get allowedUpdates(): string[] {
    return [...this.allowed];
  }

  /** Replaces the allowed_updates setting. */
  setAllowed(params: { allowedUpdates: string[] }): void {
    this.allowed = [...params.allowedUpdates];
  }

  /** Queues an update, assigning the next update_id unless it has one, and wakes waiting polls. */
  push(params: { update: Omit<Update, 'update_id'> & { update_id?: number } }): Update {
    const given = params.update.update_id;
    const update_id = given ?? this.nextId;
    this.nextId = Math.max(this.nextId, update_id + 1);
    const update = { ...params.update, update_id } as Update;
    this.queue.push(update);
    this.queue.sort((a, b) => a.update_id - b.update_id);
    for (const waiter of [...this.waiters]) waiter.wake();
    this.onChange();
    return update;
  }

  /** Drops every pending update (drop_pending_updates). */
  clear(): void {
    this.queue = [];
    this.onChange();
  }

  /** One getUpdates call: confirms by offset, then answers at once or waits up to timeoutSeconds for updates. */
  poll(params: {
    offset?: number;
    limit: number;
    timeoutSeconds: number;
    allowedUpdates?: string[];
    signal: AbortSignal;
  }): Promise<PollResult> {
    this.confirm(params.offset);
    if (params.allowedUpdates !== undefined) this.setAllowed({ allowedUpdates: params.allowedUpdates });
    for (const waiter of [...this.waiters]) waiter.end({ kind: 'conflict' });
    const ready = this.take(params.limit);
    if (ready.length > 0 || params.timeoutSeconds <= 0) return Promise.resolve({ kind: 'updates', updates: ready });
    if (params.signal.aborted) return Promise.resolve({ kind: 'aborted' });
    return new Promise<PollResult>((resolve) => {
      const timer = new AbortController();
      let done = false;
      const finish = (result: PollResult): void => {
        if (done) return;
        done = true;
        this.waiters.delete(waiter);
        timer.abort();
        params.signal.removeEventListener('abort', onAbort);
        resolve(result);
        this.onChange();
      };
      const onAbort = (): void => finish({ kind: 'aborted' });
      const waiter: Waiter = {
        wake: () => {
          const updates = this.take(params.limit);
          if (updates.length > 0) finish({ kind: 'updates', updates });
        },
        end: finish,
      };
      this.waiters.add(waiter);
      params.signal.addEventListener('abort', onAbort, { once: true });
      this.clock.sleep(params.timeoutSeconds * 1000, timer.signal).then(
        () => finish({ kind: 'updates', updates: this.take(params.limit) }),
        () => undefined,
      );
      this.onChange();
    });
  }

  /** Ends every open poll as aborted (server shutdown). */
  close(): void {
    for (const waiter of [...this.waiters]) waiter.end({ kind: 'aborted' });
  }

  private confirm(offset: number | undefined): void {
    if (offset === undefined || offset === 0) return;
    if (offset < 0) this.queue = this.queue.slice(offset);
    else this.queue = this.queue.filter((u) => u.update_id >= offset);
  }

  /** The first `limit` pending updates of allowed types; updates of other types are dropped, as Telegram does. */
  private take(limit: number): Update[] {
    this.queue = this.queue.filter((u) => this.isAllowed(u));
    return this.queue.slice(0, limit);
  }

  private isAllowed(update: Update): boolean {
    const type = Object.keys(update).find((key) => key !== 'update_id') ?? '';
    return this.allowed.length === 0 ? !OPT_IN_TYPES.has(type) : this.allowed.includes(type);
  }
}
