/** Resolves with `work`, or rejects with the signal's reason as soon as it aborts (for SDK calls that take no signal). */
export function untilAborted<T>(params: { work: Promise<T>; signal: AbortSignal }): Promise<T> {
  const { signal } = params;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    params.work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
