/** Resolves when `signal` aborts — at once if it already has (an 'abort' listener added late would never fire). */
export function whenAborted(params: { signal: AbortSignal }): Promise<void> {
  const { signal } = params;
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
