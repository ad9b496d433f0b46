import type { Logger } from 'pino';
import { storeDiskErrorOf } from '../../store/errors.js';
import type { InboxRow, Store } from '../../store/types.js';

/** A turn a refused store write cut short. */
interface StalledTurn {
  /** The message and the parts merged into it. */
  readonly rows: readonly InboxRow[];
  /** Only the final completeTurn failed (the reply is out): recording it done is all that is left. */
  readonly completeOnly: boolean;
}

/**
 * Turns the store cut short while the disk refused writes: the messages are journaled, their turns not recorded.
 * Once the store writes again, a delivered turn is recorded done (never answered twice) and the others run again.
 */
export class StalledTurns {
  private readonly turns = new Map<number, StalledTurn>();
  private readonly store: Store;
  private readonly logger: Logger;

  constructor(params: { store: Store; logger: Logger }) {
    this.store = params.store;
    this.logger = params.logger;
  }

  /** Remembers a turn that failed with a StoreDiskError during `operation`. */
  add(params: { row: InboxRow; merged: readonly InboxRow[]; operation: string }): void {
    this.turns.set(params.row.id, { rows: [params.row, ...params.merged], completeOnly: params.operation === 'completeTurn' });
  }

  /** Finishes every remembered turn: `enqueue` gets each row (not done meanwhile) whose turn must run again. */
  resume(params: { enqueue: (row: InboxRow) => void }): void {
    const stalled = [...this.turns.entries()];
    this.turns.clear();
    if (stalled.length === 0) return;
    this.logger.info({ turns: stalled.length }, 'finishing turns the full disk cut short');
    for (const [inboxId, turn] of stalled) {
      try {
        if (turn.completeOnly) this.store.completeTurn({ inboxId, merged: turn.rows.slice(1).map((r) => r.id) });
        else this.rerun({ rows: turn.rows, enqueue: params.enqueue });
      } catch (error) {
        if (storeDiskErrorOf({ error }) === undefined) throw error;
        this.turns.set(inboxId, turn); // full again: the next recovery tries once more
      }
    }
  }

  private rerun(params: { rows: readonly InboxRow[]; enqueue: (row: InboxRow) => void }): void {
    for (const part of params.rows) {
      const row = this.store.getInbound({ inboxId: part.id });
      if (row !== undefined && row.state !== 'done') params.enqueue(row);
    }
  }
}
