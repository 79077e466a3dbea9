/**
 * Runs `work` over `items`, at most `limit` at once, in order of start; resolves when all are
 * done, rejects with the first failure.
 */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}
