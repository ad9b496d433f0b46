import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import type { InboxRow } from '../../store/types.js';
import { SessionMailbox, type TurnRunner, type TypingHandle } from './mailbox.js';
import { type BusyPolicy } from '../../core/platform.js';
import type { AdapterEntry } from '../../core/platform.js';

/** How long an idle session's last arrival is remembered (longer than any sensible merge window). */
const arrivalMemoryMs = 60_000;

/** The runner's live mailboxes, one per session key; a mailbox goes away once it is idle. */
export class SessionMailboxes {
  private readonly mailboxes = new Map<string, SessionMailbox>();
  /** When each recently idle session's last message arrived, oldest first, so a follower is known as one. */
  private readonly arrivals = new Map<string, number>();
  private readonly signOfLife: ((row: InboxRow) => TypingHandle | undefined) | undefined;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly busyPolicy: () => BusyPolicy;
  private readonly runTurn: TurnRunner;

  constructor(params: {
    clock: Clock;
    logger: Logger;
    /** The configured busy policy, for entries that do not set their own (read when a mailbox is made). */
    busyPolicy: () => BusyPolicy;
    runTurn: TurnRunner;
    /** Starts typing for a message whose turn is next, before any merge wait. */
    signOfLife?: (row: InboxRow) => TypingHandle | undefined;
  }) {
    this.signOfLife = params.signOfLife;
    this.clock = params.clock;
    this.logger = params.logger;
    this.busyPolicy = params.busyPolicy;
    this.runTurn = params.runTurn;
  }

  /** The session's mailbox, if it has one now. */
  get(params: { key: string }): SessionMailbox | undefined {
    return this.mailboxes.get(params.key);
  }

  /** The session's mailbox, made with the adapter entry's busy policy and merge window when there is none. */
  for(params: { key: string; entry: AdapterEntry }): SessionMailbox {
    const existing = this.mailboxes.get(params.key);
    if (existing) return existing;
    const lastArrival = this.arrivals.get(params.key);
    this.arrivals.delete(params.key);
    const mailbox = new SessionMailbox({
      ...(lastArrival === undefined ? {} : { lastArrival }),
      ...(this.signOfLife === undefined ? {} : { signOfLife: this.signOfLife }),
      key: params.key,
      policy: params.entry.busyPolicy ?? this.busyPolicy(),
      logger: this.logger,
      runTurn: this.runTurn,
      clock: this.clock,
      mergeWindowMs: params.entry.mergeWindowMs ?? 0,
      onIdle: (m) => {
        if (!m.busy && this.mailboxes.get(m.key) === m) {
          this.mailboxes.delete(m.key);
          this.remember({ key: m.key, at: m.lastArrivalAt });
        }
      },
    });
    this.mailboxes.set(params.key, mailbox);
    return mailbox;
  }

  /** Keeps an idle session's last arrival for a while; forgets those older than the memory. */
  private remember(params: { key: string; at: number }): void {
    const now = this.clock.now();
    for (const [key, at] of this.arrivals) {
      if (now - at < arrivalMemoryMs) break;
      this.arrivals.delete(key);
    }
    if (now - params.at < arrivalMemoryMs) this.arrivals.set(params.key, params.at);
  }

  /** Every live mailbox. */
  all(): SessionMailbox[] {
    return [...this.mailboxes.values()];
  }

  /** The mailboxes with a running or waiting turn. */
  busy(): SessionMailbox[] {
    return this.all().filter((m) => m.busy);
  }

  /** Resolves true when every mailbox went idle within `timeoutMs` (on the clock), false otherwise. */
  async settle(params: { timeoutMs: number }): Promise<boolean> {
    const all = Promise.all(this.all().map((m) => m.idle())).then(() => true);
    const controller = new AbortController();
    const timeout = this.clock.sleep(params.timeoutMs, controller.signal).then(() => false, () => false);
    const result = await Promise.race([all, timeout]);
    controller.abort();
    return result;
  }
}
