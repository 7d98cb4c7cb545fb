import { errorText } from '../errors/error-text.ts';
import { logExcerpt } from '../secrets/log-excerpt.ts';

/**
 * Keeps `hookgate dev` serving when a promise rejects with nobody to handle it: a plugin or
 * gateway hook that starts work and does not await it (`Promise.reject(…)`, a forgotten
 * `fetch`). Node's default for such a rejection is to end the process, which would take the
 * whole gateway down with one hook's mistake; a hook never stops the gateway. Each one is
 * written as one line instead. An uncaught exception (a throw from a timer) still ends the
 * process: after it, Node says nothing of the state is safe to go on with. The reason is a
 * hook's text: redacted and cut as any hook output in a log line.
 *
 * Returns the function that removes the handler.
 *
 * @example
 * const stop = reportStrayRejections((line) => process.stderr.write(line));
 * // … serve …
 * stop();
 */
export function reportStrayRejections(write: (line: string) => void): () => void {
  const report = (reason: unknown) =>
    write(
      `hookgate dev: a promise rejected with no handler (a hook's unawaited work?), going on: ${logExcerpt(errorText(reason))}\n`,
    );
  process.on('unhandledRejection', report);
  return () => void process.off('unhandledRejection', report);
}
