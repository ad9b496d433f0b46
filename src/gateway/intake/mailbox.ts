import type { Logger } from 'pino';
import type { InboxRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { BusyPolicy } from '../../core/platform.js';
import { TurnAbort, type TurnAbortKind } from '../turns/abort.js';


/** The messages steered into a running turn: the turn takes them before each model call (see AgentRunParams.steering). */
export interface SteeringSource {
  /** The rows steered in since the last take, in arrival order; each row is given once. */
  readonly take: () => readonly InboxRow[];
}

/** A typing indicator kept alive until `stop()` (which may be called more than once). */
export interface TypingHandle {
  readonly stop: () => void;
}

/**
 * Runs one turn (for `row` plus the rows `merged` into it); must settle when `signal` aborts. `typing`, when given, is
 * the indicator the mailbox started as the first sign of life: the turn adopts it (and stops it) instead of starting one.
 */
export type TurnRunner = (params: { row: InboxRow; merged: readonly InboxRow[]; signal: AbortSignal; typing?: TypingHandle; steering?: SteeringSource }) => Promise<void>;

interface RunningTurn {
  readonly row: InboxRow;
  readonly controller: AbortController;
  /** Rows steered into the turn that it has not taken yet; those left when it ends become the next turns. */
  readonly steered: InboxRow[];
}

/**
 * One session's actor: its messages run one at a time, in arrival order. With policy `interrupt` a new
 * message aborts the turn that is running; with `queue` it waits; with `steer` it joins the running turn at its next
 * model call. A message enqueued with a `mode` (/queue, /steer) is treated so whatever the policy.
 */
export class SessionMailbox {
  /** The session key this mailbox serves. */
  readonly key: string;
  private readonly queue: InboxRow[] = [];
  /** Queued rows a later message superseded (policy interrupt): they go into the history unanswered. */
  private readonly superseded = new Set<number>();
  /** Queued rows sent with /queue: a later message under policy interrupt never supersedes them. */
  private readonly kept = new Set<number>();
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

  /**
   * Adds a message; applies the busy policy, or `mode` when given (not for replayed messages); starts the loop when
   * idle. A steered message with no turn running (or one already aborted, or one the system started) is queued like any.
   */
  enqueue(params: { row: InboxRow; replay?: boolean; mode?: BusyPolicy }): void {
    const mode = params.replay === true ? 'queue' : (params.mode ?? this.policy);
    const running = this.running;
    // A system-started turn (a job, the heartbeat) may end without a word: a user's text steered into it could go unanswered.
    if (mode === 'steer' && running !== null && !running.controller.signal.aborted && running.row.event.system === undefined) {
      running.steered.push(params.row);
      this.lastArrival = this.clock.now();
      return;
    }
    if (mode === 'interrupt') {
      for (const waiting of this.queue) if (!this.kept.has(waiting.id)) this.superseded.add(waiting.id);
      if (this.running) this.interrupt({ kind: 'superseded' });
    }
    if (params.mode === 'queue') this.kept.add(params.row.id);
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

  /** Removes the messages that have not started (those steered into the running turn and not taken yet too); returns them. */
  clearQueue(): InboxRow[] {
    this.superseded.clear();
    this.followers.clear();
    this.kept.clear();
    const steered = this.running?.steered.splice(0) ?? [];
    return [...steered, ...this.queue.splice(0, this.queue.length)];
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
      this.kept.delete(first.id);
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
      this.kept.delete(part.id);
    }
    if (merged.length > 0) this.logger.info({ inboxId: row.id, parts: merged.length + 1 }, 'merged message parts into one turn');
    return { row, merged, ...withTyping };
  }

  /** Puts rows back among the waiting ones in arrival order (inbox ids grow with arrival). */
  private requeue(params: { rows: readonly InboxRow[] }): void {
    for (const row of params.rows) {
      const at = this.queue.findIndex((waiting) => waiting.id > row.id);
      this.queue.splice(at < 0 ? this.queue.length : at, 0, row);
    }
  }

  private async drain(): Promise<void> {
    try {
      for (let next = await this.take(); next !== undefined; next = await this.take()) {
        const { row, merged, typing } = next;
        const controller = new AbortController();
        if (this.superseded.delete(row.id)) controller.abort(new TurnAbort({ kind: 'superseded' }));
        const running: RunningTurn = { row, controller, steered: [] };
        this.running = running;
        const steering: SteeringSource = { take: () => (controller.signal.aborted ? [] : running.steered.splice(0)) };
        try {
          await this.runTurn({ row, merged, signal: controller.signal, steering, ...(typing === undefined ? {} : { typing }) });
        } catch (error) {
          this.logger.error({ err: error, inboxId: row.id }, 'turn failed');
        } finally {
          typing?.stop();
          this.running = null;
          // Steered text the turn ended before reading is answered as ordinary messages, in arrival order among those
          // waiting (a /queue sent before it stays ahead of it).
          this.requeue({ rows: running.steered.splice(0) });
        }
      }
    } finally {
      this.loop = null;
      this.onIdle(this);
    }
  }
}
