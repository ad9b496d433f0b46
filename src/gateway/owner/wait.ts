import type { Clock } from '../../core/clock.js';
import { abortKindOf } from '../turns/abort.js';

/** How waiting for the owner's answer (approval, clarify) ends when no answer came. */
export type WaitEnd = { readonly kind: 'timeout' } | { readonly kind: 'cancelled'; readonly why: string };

/** Why a waiting question (approval, clarify) was cancelled, per way the turn ended. */
export function cancelWhy(params: { signal: AbortSignal }): string {
  switch (abortKindOf(params)) {
    case 'stop':
      return 'the turn was stopped (/stop)';
    case 'superseded':
      return 'a new message interrupted the turn';
    case 'new-session':
      return 'a new conversation was started (/new)';
    case 'shutdown':
      return 'the gateway is stopping';
    case undefined:
      return 'the turn ended';
  }
}

/**
 * Waits for a question's outcome: `settled`, resolved by an answer, or by `resolve` here with "cancelled" when `signal`
 * aborts or "timeout" after `timeoutMs`; the abort listener and the timer are gone once it resolves.
 */
export async function waitForOwner<O>(params: {
  settled: Promise<O | WaitEnd>;
  resolve: (outcome: O | WaitEnd) => void;
  signal: AbortSignal;
  timeoutMs: number;
  clock: Clock;
}): Promise<O | WaitEnd> {
  const { signal, resolve } = params;
  const stopWaiting = new AbortController();
  const onAbort = (): void => resolve({ kind: 'cancelled', why: cancelWhy({ signal }) });
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  params.clock.sleep(params.timeoutMs, stopWaiting.signal).then(
    () => resolve({ kind: 'timeout' }),
    () => undefined,
  );
  try {
    return await params.settled;
  } finally {
    stopWaiting.abort();
    signal.removeEventListener('abort', onAbort);
  }
}
