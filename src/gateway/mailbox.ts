import type { Logger } from 'pino';
import type { InboxRow } from '../store/types.js';
import { TurnAbort, type TurnAbortKind } from './turn-abort.js';

/** What to do with a message that arrives while the session is answering another. */
export type BusyPolicy = 'interrupt' | 'queue';

/** Runs one turn; must settle when `signal` aborts. */
export type TurnRunner = (params: { row: InboxRow; signal: AbortSignal }) => Promise<void>;

interface RunningTurn {
  readonly row: InboxRow;
  readonly controller: AbortController;
}

/**
 * One session's actor: its messages run one at a time, in arrival order. With policy `interrupt` a new
 * message aborts the turn that is running; with `queue` it waits.
 */
export class SessionMailbox {
  /** The session key this mailbox serves. */
  readonly key: string;
  private readonly queue: InboxRow[] = [];
  /** Queued rows a later message superseded (policy interrupt): they go into the history unanswered. */
  private readonly superseded = new Set<number>();
  private running: RunningTurn | null = null;
  private loop: Promise<void> | null = null;
  private readonly policy: BusyPolicy;
  private readonly runTurn: TurnRunner;
  private readonly logger: Logger;
  private readonly onIdle: (mailbox: SessionMailbox) => void;

  constructor(params: { key: string; policy: BusyPolicy; runTurn: TurnRunner; logger: Logger; onIdle: (mailbox: SessionMailbox) => void }) {
    this.key = params.key;
    this.policy = params.policy;
    this.runTurn = params.runTurn;
    this.logger = params.logger;
    this.onIdle = params.onIdle;
  }

  /** True while a turn runs or messages wait. */
  get busy(): boolean {
    return this.running !== null || this.queue.length > 0;
  }

  /** Messages waiting behind the running turn. */
  get queued(): number {
    return this.queue.length;
  }

  /** The inbox row of the running turn, if any. */
  get runningRow(): InboxRow | null {
    return this.running?.row ?? null;
  }

  /** Adds a message; applies the busy policy (not for replayed messages); starts the loop when idle. */
  enqueue(params: { row: InboxRow; replay?: boolean }): void {
    if (this.policy === 'interrupt' && params.replay !== true) {
      for (const waiting of this.queue) this.superseded.add(waiting.id);
      if (this.running) this.interrupt({ kind: 'superseded' });
    }
    this.queue.push(params.row);
    this.loop ??= this.drain();
  }

  /** Aborts the running turn. Returns false when nothing was running. */
  interrupt(params: { kind: TurnAbortKind }): boolean {
    if (!this.running || this.running.controller.signal.aborted) return false;
    this.running.controller.abort(new TurnAbort({ kind: params.kind }));
    return true;
  }

  /** Removes the messages that have not started; returns them. */
  clearQueue(): InboxRow[] {
    this.superseded.clear();
    return this.queue.splice(0, this.queue.length);
  }

  /** Resolves when nothing runs and nothing waits. */
  async idle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  private async drain(): Promise<void> {
    try {
      for (let row = this.queue.shift(); row !== undefined; row = this.queue.shift()) {
        const controller = new AbortController();
        if (this.superseded.delete(row.id)) controller.abort(new TurnAbort({ kind: 'superseded' }));
        this.running = { row, controller };
        try {
          await this.runTurn({ row, signal: controller.signal });
        } catch (error) {
          this.logger.error({ err: error, inboxId: row.id }, 'turn failed');
        } finally {
          this.running = null;
        }
      }
    } finally {
      this.loop = null;
      this.onIdle(this);
    }
  }
}
