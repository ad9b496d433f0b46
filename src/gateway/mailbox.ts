import type { Logger } from 'pino';
import type { InboxRow } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import { TurnAbort, type TurnAbortKind } from './turn-abort.js';

/** What to do with a message that arrives while the session is answering another. */
export type BusyPolicy = 'interrupt' | 'queue';

/** A typing indicator kept alive until `stop()` (which may be called more than once). */
export interface TypingHandle {
  readonly stop: () => void;
}

/**
 * Runs one turn (for `row` plus the rows `merged` into it); must settle when `signal` aborts. `typing`, when given, is
 * the indicator the mailbox started as the first sign of life: the turn adopts it (and stops it) instead of starting one.
 */
export type TurnRunner = (params: { row: InboxRow; merged: readonly InboxRow[]; signal: AbortSignal; typing?: TypingHandle }) => Promise<void>;

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

  private readonly clock: Clock;
  private readonly mergeWindowMs: number;
  private lastArrival: number;
  /** Rows that arrived within the merge window of the message before them: they may be part of a burst. */
  private readonly followers = new Set<number>();
  private readonly signOfLife: ((row: InboxRow) => TypingHandle | undefined) | undefined;

  constructor(params: {
    key: string;
    policy: BusyPolicy;
    runTurn: TurnRunner;
    logger: Logger;
    onIdle: (mailbox: SessionMailbox) => void;
    clock: Clock;
    /** How long to wait for more parts of a message marked `continues` (0: never wait). */
    mergeWindowMs: number;
    /** When the session's previous message arrived (on the clock), if the mailbox is made again soon after one. */
    lastArrival?: number;
    /** Starts the typing indicator for the row whose turn is next, before any merge wait (the first sign of life). */
    signOfLife?: (row: InboxRow) => TypingHandle | undefined;
  }) {
    this.lastArrival = params.lastArrival ?? Number.NEGATIVE_INFINITY;
    this.signOfLife = params.signOfLife;
    this.key = params.key;
    this.clock = params.clock;
    this.mergeWindowMs = params.mergeWindowMs;
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

  /** When the session's last message arrived (on the clock). */
  get lastArrivalAt(): number {
    return this.lastArrival;
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
    const now = this.clock.now();
    if (params.replay !== true && now - this.lastArrival < this.mergeWindowMs) this.followers.add(params.row.id);
    this.lastArrival = now;
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
    this.followers.clear();
    return this.queue.splice(0, this.queue.length);
  }

  /** Resolves when nothing runs and nothing waits. */
  async idle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  /**
   * The next turn's rows. A message that may be part of a burst (the platform marked it `continues`: an album, a long
   * text the client split; or it followed the previous message within the merge window) waits until no part has
   * arrived for the merge window, then every queued part becomes one turn. A lone short message is taken at once.
   * Typing starts before any wait.
   */
  private async take(): Promise<{ row: InboxRow; merged: InboxRow[]; typing?: TypingHandle } | undefined> {
    const first = this.queue[0];
    if (first === undefined) return undefined;
    const typing = this.superseded.has(first.id) ? undefined : this.signOfLife?.(first);
    const withTyping = typing === undefined ? {} : { typing };
    const burst = first.event.continues === true || this.followers.has(first.id);
    if (!burst || this.mergeWindowMs <= 0) {
      this.queue.shift();
      this.followers.delete(first.id);
      return { row: first, merged: [], ...withTyping };
    }
    const deadline = this.clock.now() + this.mergeWindowMs * 4;
    for (let quietFor = this.clock.now() - this.lastArrival; quietFor < this.mergeWindowMs && this.clock.now() < deadline; quietFor = this.clock.now() - this.lastArrival) {
      await this.clock.sleep(this.mergeWindowMs - quietFor);
    }
    const [row, ...merged] = this.queue.splice(0, this.queue.length);
    if (row === undefined) {
      typing?.stop();
      return undefined;
    }
    for (const part of [row, ...merged]) {
      this.superseded.delete(part.id);
      this.followers.delete(part.id);
    }
    if (merged.length > 0) this.logger.info({ inboxId: row.id, parts: merged.length + 1 }, 'merged message parts into one turn');
    return { row, merged, ...withTyping };
  }

  private async drain(): Promise<void> {
    try {
      for (let next = await this.take(); next !== undefined; next = await this.take()) {
        const { row, merged, typing } = next;
        const controller = new AbortController();
        if (this.superseded.delete(row.id)) controller.abort(new TurnAbort({ kind: 'superseded' }));
        this.running = { row, controller };
        try {
          await this.runTurn({ row, merged, signal: controller.signal, ...(typing === undefined ? {} : { typing }) });
        } catch (error) {
          this.logger.error({ err: error, inboxId: row.id }, 'turn failed');
        } finally {
          typing?.stop();
          this.running = null;
        }
      }
    } finally {
      this.loop = null;
      this.onIdle(this);
    }
  }
}
