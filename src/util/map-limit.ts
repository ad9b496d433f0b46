/** Maps `items` with at most `limit` calls of `fn` running at once; results keep the items' order. */
export async function mapLimit<T, R>(params: { items: readonly T[]; limit: number; fn: (item: T) => Promise<R> }): Promise<R[]> {
  const results: R[] = new Array<R>(params.items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < params.items.length; i = next++) {
      const item = params.items[i] as T;
      results[i] = await params.fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(params.limit, params.items.length)) }, worker));
  return results;
}
