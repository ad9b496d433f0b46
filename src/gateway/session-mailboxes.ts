import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';
import { SessionMailbox, type BusyPolicy, type TurnRunner } from './mailbox.js';
import type { AdapterEntry } from './runner-types.js';

/** The runner's live mailboxes, one per session key; a mailbox goes away once it is idle. */
export class SessionMailboxes {
  private readonly mailboxes = new Map<string, SessionMailbox>();
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
  }) {
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
    const mailbox = new SessionMailbox({
      key: params.key,
      policy: params.entry.busyPolicy ?? this.busyPolicy(),
      logger: this.logger,
      runTurn: this.runTurn,
      clock: this.clock,
      mergeWindowMs: params.entry.mergeWindowMs ?? 0,
      onIdle: (m) => {
        if (!m.busy && this.mailboxes.get(m.key) === m) this.mailboxes.delete(m.key);
      },
    });
    this.mailboxes.set(params.key, mailbox);
    return mailbox;
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
