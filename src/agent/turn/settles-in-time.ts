/**
 * How long past the invocation's deadline a turn still waits for each of its wrap-up steps (handing
 * over its observer events, a delegated child's too; storing its trace beside the turn-trace event):
 * a share of the 10 s `DEADLINE_MARGIN_MS`.
 */
export const EVENTS_GRACE_MS = 3_000;

/**
 * Waits for `work`, but not past `graceMs` after `signal` aborts (counted from now if it already
 * has): true when `work` settled in time, false when the wait was given up. Without a signal it
 * waits as long as `work` takes. `work` is not cancelled; a rejection counts as settled.
 *
 * Why: once a turn's reply has gone, what is left of its invocation must not run into the Lambda
 * deadline, or the delivery is never recorded as handled and SQS runs the turn, reply and all, again.
 *
 * @example
 * if (!(await settlesInTime(hooks.flush(), deps.signal, 3_000))) logger.warn('events still in flight');
 */
export async function settlesInTime(work: Promise<unknown>, signal: AbortSignal | undefined, graceMs: number): Promise<boolean> {
  if (!signal) {
    await work.catch(() => {});
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  let giveUp!: () => void;
  const late = new Promise<false>((resolve) => (giveUp = () => resolve(false)));
  const startGrace = () => {
    timer = setTimeout(giveUp, graceMs);
  };
  if (signal.aborted) startGrace();
  else signal.addEventListener('abort', startGrace, { once: true });
  try {
    return await Promise.race([
      work.then(
        () => true as const,
        () => true as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', startGrace);
  }
}
