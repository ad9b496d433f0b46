/** What a stop does to a turn that runs delegate_task children: the runner interrupts the session's turn (kind shutdown). */
export type InterruptDelegating = (params: { sessionKey: string }) => void;

/**
 * The turns running delegate_task children now, by session key. A gateway stop does not drain them as it drains a turn
 * writing its answer: children work for many rounds each (and their commands for minutes), so such a turn is
 * interrupted at once, its children and their commands with it, and left open for the next start's replay. A turn that
 * starts children while the gateway stops is interrupted as it starts them.
 */
export class RunningDelegations {
  private readonly running = new Map<string, number>();
  private interrupt: InterruptDelegating | undefined;

  /**
   * Records that the session's turn starts children; the function returned records that they ended. While the gateway
   * stops, the turn is interrupted before this returns.
   */
  enter(params: { sessionKey: string }): () => void {
    const { sessionKey } = params;
    this.running.set(sessionKey, (this.running.get(sessionKey) ?? 0) + 1);
    this.interrupt?.({ sessionKey });
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (this.running.get(sessionKey) ?? 1) - 1;
      if (count > 0) this.running.set(sessionKey, count);
      else this.running.delete(sessionKey);
    };
  }

  /** The gateway stops: `interrupt` is called for each session whose turn runs children now, and for each that starts them later. */
  stopping(params: { interrupt: InterruptDelegating }): void {
    this.interrupt = params.interrupt;
    for (const sessionKey of [...this.running.keys()]) params.interrupt({ sessionKey });
  }
}
