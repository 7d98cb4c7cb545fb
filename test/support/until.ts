/**
 * Polls `check` until it holds, failing with "timed out waiting for <what>" after `timeoutMs`.
 * For tests that wait on another process or a queue (no timing is asserted, only an upper bound).
 *
 * @example
 * await until(() => ran.length === 3, 'three observer runs');
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 25_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
