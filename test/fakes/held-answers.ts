/** A held answer, as a test sees it. */
export interface HeldAnswer {
  /** Resolves once a matching call took effect and its answer is being held. */
  readonly reached: Promise<void>;
  /** Lets the answer go (to a client that may be gone by then). */
  release(): void;
}

interface Armed {
  readonly matches: (key: string) => boolean;
  readonly reached: () => void;
  readonly released: Promise<void>;
}

/**
 * Answers a fake holds back after the call took effect: the platform accepted a send, but its reply (with the
 * message id) has not reached the client. A crash test kills the client meanwhile.
 */
export class HeldAnswers {
  private armed: Armed[] = [];

  /** Holds the answer of the next call whose key `matches` accepts. */
  holdNext(params: { matches: (key: string) => boolean }): HeldAnswer {
    let reached = (): void => undefined;
    let release = (): void => undefined;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.armed.push({ matches: params.matches, reached, released });
    return { reached: reachedPromise, release };
  }

  /** Takes the hold armed for this call, if any; the caller awaits `wait` after the call took effect. */
  take(params: { key: string }): { wait: (signal?: AbortSignal) => Promise<void> } | undefined {
    const armed = this.armed.find((a) => a.matches(params.key));
    if (!armed) return undefined;
    this.armed = this.armed.filter((a) => a !== armed);
    return {
      wait: async (signal) => {
        armed.reached();
        const gone = new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        await Promise.race([armed.released, gone]);
      },
    };
  }
}
