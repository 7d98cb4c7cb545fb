import { errorText } from '../errors/error-text.ts';
import { logExcerpt } from '../secrets/log-excerpt.ts';

/**
 * Keeps the process serving when a promise rejects with nobody to handle it: a plugin or gateway
 * hook that starts work and does not await it (`Promise.reject(…)`, a forgotten `fetch`).
 * hookgate's own code awaits what it starts, so such a rejection is a hook's mistake, and a hook
 * never stops a turn or the gateway. Node's default ends the process; `report` is called instead,
 * with the reason as a log excerpt (a hook's text: redacted and cut as any hook output in a log
 * line). An uncaught exception (a throw from a timer) still ends the process: after one, Node
 * says nothing of the state is safe to go on with.
 *
 * Returns the function that removes the handler.
 *
 * @example
 * const stop = reportStrayRejections((reason) => process.stderr.write(`going on: ${reason}\n`));
 * // … serve …
 * stop();
 */
export function reportStrayRejections(report: (reason: string) => void): () => void {
  const listener = (reason: unknown) => report(logExcerpt(errorText(reason)));
  process.on('unhandledRejection', listener);
  return () => void process.off('unhandledRejection', listener);
}
