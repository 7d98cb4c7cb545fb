import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dispatchBatch } from '../../src/gateway/dispatch/dispatch-batch.ts';

interface Item {
  chat: string;
  fails: boolean;
  /** Microtask turns the dispatch waits, so chats interleave. */
  wait: number;
}

const items = fc.array(
  fc.record({ chat: fc.constantFrom('a', 'b', 'c', 'd', 'e'), fails: fc.nat(5).map((n) => n === 0), wait: fc.nat(4) }),
  { maxLength: 40 },
);

/** Runs a batch, recording the order dispatches started in and the most at once. */
async function run(batch: readonly Item[], concurrency: number) {
  const started: number[] = [];
  let running = 0;
  let most = 0;
  const outcome = await dispatchBatch(
    batch,
    (item) => item.chat,
    async (item) => {
      const index = batch.indexOf(item);
      started.push(index);
      running++;
      most = Math.max(most, running);
      for (let i = 0; i < item.wait; i++) await Promise.resolve();
      running--;
      if (item.fails) throw new Error(`failed ${index}`);
      return `done ${index}`;
    },
    concurrency,
  ).then(
    (results) => ({ results }),
    (error: Error) => ({ error }),
  );
  return { started, most, outcome };
}

describe('dispatchBatch', () => {
  it("keeps each chat's order, stops a chat at its first failure, goes on with the others, throws the first failure", async () => {
    await fc.assert(
      fc.asyncProperty(items, fc.integer({ min: 1, max: 6 }), async (raw, concurrency) => {
        // Distinct objects, so indexOf finds each item's own index.
        const batch = raw.map((item) => ({ ...item }));
        const { started, most, outcome } = await run(batch, concurrency);
        expect(most).toBeLessThanOrEqual(concurrency);
        const expected = batch.flatMap((item, index) => {
          const earlier = batch.slice(0, index).filter((other) => other.chat === item.chat);
          return earlier.some((other) => other.fails) ? [] : [index];
        });
        expect([...started].sort((x, y) => x - y)).toEqual(expected);
        for (const chat of new Set(batch.map((item) => item.chat))) {
          const ofChat = started.filter((index) => batch[index]!.chat === chat);
          expect(ofChat).toEqual([...ofChat].sort((x, y) => x - y));
        }
        const firstFailure = expected.find((index) => batch[index]!.fails);
        if (firstFailure === undefined) expect(outcome).toEqual({ results: batch.map((_, index) => `done ${index}`) });
        else expect(outcome).toEqual({ error: new Error(`failed ${firstFailure}`) });
      }),
    );
  });

  it('dispatches different chats side by side, up to the bound', async () => {
    const batch = Array.from({ length: 20 }, (_, i) => ({ chat: `c${i}`, fails: false, wait: 3 }));
    expect((await run(batch, 16)).most).toBe(16);
    const oneChat = Array.from({ length: 5 }, () => ({ chat: 'same', fails: false, wait: 3 }));
    expect((await run(oneChat, 16)).most).toBe(1);
  });
});
