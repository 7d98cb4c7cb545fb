/**
 * How many chats of one notification are dispatched at once. A WhatsApp notification can carry
 * the messages of many chats; one after another, each paying its dedup write and its enqueue,
 * a few hundred of them took seconds, where Meta asks for answers within one.
 */
export const BATCH_DISPATCH_CONCURRENCY = 16;

/**
 * Dispatches the items of one notification: the items of one chat (`chatOf`) one after another
 * in the order given, since their turn messages must reach the chat's FIFO group in that order,
 * and up to `BATCH_DISPATCH_CONCURRENCY` chats at once. A chat whose item fails dispatches none
 * of its later items (they would overtake it when the platform redelivers); the other chats go
 * on, so what they queued is durable, and the first failure, in the order given, is thrown once
 * all have settled. Outcomes come back in the order given.
 *
 * @example
 * const outcomes = await dispatchBatch(deliveries, (d) => sessionKeyOf(d.event.source), dispatch);
 */
export async function dispatchBatch<T, R>(
  items: readonly T[],
  chatOf: (item: T) => string,
  dispatch: (item: T) => Promise<R>,
  concurrency = BATCH_DISPATCH_CONCURRENCY,
): Promise<R[]> {
  if (items.length === 1) return [await dispatch(items[0]!)];
  const chats = new Map<string, number[]>();
  for (const [index, item] of items.entries()) {
    const key = chatOf(item);
    const queue = chats.get(key);
    if (queue) queue.push(index);
    else chats.set(key, [index]);
  }
  const results = new Array<R>(items.length);
  const failures = new Map<number, unknown>();
  const queues = [...chats.values()];
  let next = 0;
  const worker = async () => {
    for (let chat = queues[next++]; chat; chat = queues[next++]) {
      for (const index of chat) {
        try {
          results[index] = await dispatch(items[index]!);
        } catch (error) {
          failures.set(index, error);
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queues.length) }, worker));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return results;
}
