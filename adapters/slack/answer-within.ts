import type { Clock } from '../../src/core/clock.js';

/** A Slack Web API call that got no answer in time; `name` and `hostname` are what the log's failure classifier reads. */
export class SlackTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  /** host (and port) of the Web API the call went to. */
  readonly hostname: string;
  /** The method that got no answer (e.g. auth.test). */
  readonly method: string;

  constructor(params: { method: string; apiUrl: string; ms: number }) {
    super(`Slack ${params.method} got no answer within ${params.ms / 1000}s`);
    this.method = params.method;
    this.hostname = URL.canParse(params.apiUrl) ? new URL(params.apiUrl).host : params.apiUrl;
  }
}

/**
 * What `work` gives, unless `ms` pass on `clock` first (a SlackTimeoutError) or `signal` aborts (its reason). The Web
 * client itself has no deadline (a per-client timeout would cut file uploads short too), so a Slack API that takes the
 * connection and never answers would otherwise leave its caller waiting for good, with nothing in the log.
 */
export async function answerWithin<T>(params: { work: Promise<T>; ms: number; clock: Clock; method: string; apiUrl: string; signal: AbortSignal }): Promise<T> {
  const { signal } = params;
  const guard = new AbortController();
  const stop = (): void => guard.abort();
  signal.addEventListener('abort', stop, { once: true });
  const late: Promise<never> = params.clock.sleep(params.ms, guard.signal).then(
    () => {
      throw new SlackTimeoutError({ method: params.method, apiUrl: params.apiUrl, ms: params.ms });
    },
    () => {
      throw signal.aborted ? signal.reason : new Error('answerWithin: cancelled');
    },
  );
  // Settled after the race when the work answered first: nobody waits for it then.
  late.catch(() => undefined);
  try {
    return await Promise.race([params.work, late]);
  } finally {
    guard.abort();
    signal.removeEventListener('abort', stop);
  }
}
