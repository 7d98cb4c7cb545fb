/** What `until` resolves with: the check's first value that is not false, null or undefined. */
export type Held<T> = Exclude<T, false | null | undefined>;

export interface UntilOptions {
  /** The upper bound, after which the wait fails (default 25 s). Not a timing assertion. */
  timeoutMs?: number;
  /** Pause between two checks (default 20 ms). */
  everyMs?: number;
  /** A check that throws (a server not listening yet, a file not written yet) counts as "not yet". */
  ignoreErrors?: boolean;
  /** Appended to the timeout message: what helps to see why (a child's output, the last state). */
  context?: () => string;
}

/**
 * Polls `check` until it gives a value other than false, null or undefined, and resolves with
 * that value; fails with "timed out waiting for <what>" after `timeoutMs`. The one way tests
 * wait on another process, a queue or a file: every wait is bounded, and no timing is asserted,
 * only an upper bound. A check that throws fails the wait at once, unless `ignoreErrors`.
 *
 * @example
 * await until(() => ran.length === 3, 'three observer runs');
 * const reply = await until(async () => (await messages('c1'))[before], 'a reply in c1');
 */
export async function until<T>(check: () => T | Promise<T>, what: string, options: UntilOptions = {}): Promise<Held<T>> {
  const { timeoutMs = 25_000, everyMs = 20, ignoreErrors = false, context } = options;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = ignoreErrors
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check();
    if (value !== undefined && value !== null && value !== false) return value as Held<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${context ? `\n${context()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
