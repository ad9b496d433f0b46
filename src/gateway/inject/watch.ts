import type { InjectedTurnEnd } from '../../jobs/ports.js';

/** Ends kept for turns nobody watched yet (a replayed turn may end before the scheduler asks). */
const maxUnwatched = 200;

/** Waiters for system-started turns, by inbox row: the runner settles them when the turn ends, or on stop. */
export class TurnWatch {
  private readonly waiters = new Map<number, (end: InjectedTurnEnd) => void>();
  private readonly promises = new Map<number, Promise<InjectedTurnEnd>>();
  private readonly unwatched = new Map<number, InjectedTurnEnd>();

  /** Resolves when the turn of `inboxId` ends (at once when it ended unwatched). */
  watch(params: { inboxId: number }): Promise<InjectedTurnEnd> {
    const { inboxId } = params;
    const ended = this.unwatched.get(inboxId);
    if (ended !== undefined) {
      this.unwatched.delete(inboxId);
      return Promise.resolve(ended);
    }
    const known = this.promises.get(inboxId);
    if (known !== undefined) return known;
    const promise = new Promise<InjectedTurnEnd>((resolve) => this.waiters.set(inboxId, resolve));
    this.promises.set(inboxId, promise);
    return promise;
  }

  /** Reports how a turn ended. */
  settle(params: { inboxId: number; end: InjectedTurnEnd }): void {
    const resolve = this.waiters.get(params.inboxId);
    if (resolve === undefined) {
      this.unwatched.set(params.inboxId, params.end);
      for (const key of this.unwatched.keys()) {
        if (this.unwatched.size <= maxUnwatched) break;
        this.unwatched.delete(key);
      }
      return;
    }
    this.waiters.delete(params.inboxId);
    this.promises.delete(params.inboxId);
    resolve(params.end);
  }

  /** Ends every wait with `shutdown` (the gateway stops). */
  closeAll(): void {
    for (const inboxId of [...this.waiters.keys()]) this.settle({ inboxId, end: { outcome: 'shutdown', sessionId: null, text: '', messageIds: [] } });
  }
}
