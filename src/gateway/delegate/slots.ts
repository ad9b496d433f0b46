/** Counted slots for running children: at most `size` are held at once; the others wait in order. */
export class ChildSlots {
  private readonly size: number;
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(params: { size: number }) {
    this.size = Math.max(1, Math.floor(params.size));
  }

  /** Slots held now. */
  get running(): number {
    return this.held;
  }

  /**
   * Waits for a free slot; resolves to its release function, or to undefined (nothing held) when `signal` aborts first.
   * Call the release function exactly once.
   */
  async acquire(params: { signal: AbortSignal }): Promise<(() => void) | undefined> {
    const { signal } = params;
    if (signal.aborted) return undefined;
    if (this.held < this.size) {
      this.held += 1;
      return this.releaser();
    }
    return new Promise<(() => void) | undefined>((resolve) => {
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.held += 1;
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.held -= 1;
      this.waiting.shift()?.();
    };
  }
}
