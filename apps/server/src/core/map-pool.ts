/**
 * Runs `work` over `items`, at most `limit` at a time, keeping the order of the answers: never a Promise.all
 * over a list whose length a customer decides, so open requests and memory stay flat however it grows. A
 * failure stops new work from starting and is thrown once the work under way has ended.
 */
export async function mapPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let failure: { error: unknown } | null = null;
  // One iterator shared by every lane: each takes the next item when it is free.
  const entries = items.entries();
  const lane = async () => {
    for (const [index, item] of entries) {
      if (failure) return;
      try {
        results[index] = await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
