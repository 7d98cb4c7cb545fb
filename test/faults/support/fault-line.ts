import type { TestContext } from 'vitest';

/**
 * Records a case's one-line figure on the test (`task.meta.fault`); the faults reporter
 * (test/faults/support/fault-reporter.ts) prints it as it comes and again in the closing list.
 *
 * @example
 * faultLine(ctx, 'fault 2 duplicate-deliveries: 200 deliveries, 1 turn, 1 reply');
 */
export function faultLine(ctx: TestContext, line: string): void {
  (ctx.task.meta as { fault?: string }).fault = line;
}

/** True under `npm run test:faults -- --quick` (smaller sizes for CI). */
export const QUICK = process.env.HOOKGATE_FAULTS_QUICK === '1';

/** `full` normally, `quick` under --quick. */
export const size = (full: number, quick: number): number => (QUICK ? quick : full);

/** Polls `read` every 50 ms until `done` holds; fails after 4 minutes (a bound, not a timing claim). */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const end = Date.now() + 240_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`gave up waiting; last seen: ${JSON.stringify(value)?.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves after `ms` (for "nothing more arrives" windows, never for an assertion on time). */
export const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
