// Two ways to drive a target with messages: closed loop (a fixed number in flight, as fast as it answers) and paced
// (a fixed arrival rate, whatever the answers' latency, as real chats arrive).

/** Sends message `n` and resolves when it is answered. */
export type SendOne = (params: { n: number }) => Promise<void>;

/** What a load run measured. */
export interface LoadFigures {
  readonly messages: number;
  /** First send → last answer. */
  readonly seconds: number;
  /** Send → answer of each message, in the order they were answered. */
  readonly latenciesMs: readonly number[];
}

/** Sends `messages` messages with `concurrency` in flight at all times (a new one as soon as one is answered). */
export async function closedLoop(params: { messages: number; concurrency: number; send: SendOne }): Promise<LoadFigures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < params.messages) {
      const n = next++;
      const t0 = performance.now();
      await params.send({ n });
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: params.concurrency }, worker));
  return { messages: latencies.length, seconds: (performance.now() - started) / 1000, latenciesMs: latencies };
}

/**
 * Sends `messages` messages at `perSecond`, message n due at start + n/perSecond (each timer set against that absolute
 * time, so a late one does not delay the rest); latency runs from when the message was sent. `lateMs` is the largest
 * delay of a send past its due time (this process's own lag: large values mean the pace was not held).
 */
export async function paced(params: { messages: number; perSecond: number; send: SendOne }): Promise<LoadFigures & { lateMs: number }> {
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  // The first failure stops the sending (and is thrown once the messages in flight settled).
  let failure: { error: unknown } | undefined;
  let lateMs = 0;
  const started = performance.now();
  for (let n = 0; n < params.messages && failure === undefined; n++) {
    const due = started + (n * 1000) / params.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    lateMs = Math.max(lateMs, t0 - due);
    inFlight.push(
      params.send({ n }).then(
        () => void latencies.push(performance.now() - t0),
        (error: unknown) => void (failure ??= { error }),
      ),
    );
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure.error;
  return { messages: latencies.length, seconds: (performance.now() - started) / 1000, latenciesMs: latencies, lateMs };
}
