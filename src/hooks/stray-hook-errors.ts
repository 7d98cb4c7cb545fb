import { errorText } from '../errors/error-text.ts';
import { logExcerpt } from '../secrets/log-excerpt.ts';
import { type HookCodeOwner, hookCodeOwner } from './hook-code.ts';

/**
 * A failure no code of the turn was there to catch, kept from ending the process. `reason` is a
 * log excerpt: a hook's text, redacted and cut as any hook output in a log line.
 */
export type StrayError =
  /** A promise rejected with no handler; `owner` where Node's async context names the hook (hook-code.ts). */
  | { readonly kind: 'rejection'; readonly reason: string; readonly owner?: HookCodeOwner }
  /** Work a hook left behind (a timer, a listener) threw. */
  | { readonly kind: 'exception'; readonly reason: string; readonly owner: HookCodeOwner };

export interface StrayErrorHandling {
  /** Called for each stray failure the process goes on after. */
  report(error: StrayError): void;
  /**
   * An uncaught exception from hookgate's own code, which ends the process. Default: Node's own
   * handling (its message on stderr, exit code 1), as if no one had listened.
   */
  fatal?(error: unknown, origin: NodeJS.UncaughtExceptionOrigin): void;
}

/**
 * Keeps the process serving after a hook's stray failure: a hook never stops a turn or the
 * gateway. Two kinds:
 * - a promise that rejects with nobody to handle it (a plugin's `Promise.reject(…)` or forgotten
 *   `fetch`, not awaited). hookgate's own code awaits what it starts, so every such rejection is
 *   reported and the process goes on;
 * - an exception thrown from work a plugin or gateway hook left behind (a timer, an event
 *   listener, an I/O callback, a `queueMicrotask` callback), where no code of the turn can catch
 *   it. Node runs the listener in the async context of the throw, so `runAsHookCode`
 *   (hook-code.ts) tells a hook's from hookgate's (a microtask's throw it reports with no
 *   context, so the callbacks hook code queues are wrapped while this listens). A
 *   hook's is reported and the process goes on: what failed was the hook's own work, and the
 *   hook's call has already ended or ends at its deadline. Any other uncaught exception is
 *   hookgate's own, after which Node says nothing of the state is safe: `fatal`.
 *
 * Returns the function that removes both listeners (and puts `queueMicrotask` back).
 *
 * @example
 * const stop = keepServingAfterHookErrors({
 *   report: ({ kind, reason }) => process.stderr.write(`stray ${kind}, going on: ${reason}\n`),
 * });
 * // … serve …
 * stop();
 */
export function keepServingAfterHookErrors(handling: StrayErrorHandling): () => void {
  const fatal = handling.fatal ?? endAsNodeWould;
  const excerpt = (reason: unknown): string => logExcerpt(errorText(reason));
  const onRejection = (reason: unknown): void => {
    const owner = hookCodeOwner();
    handling.report({ kind: 'rejection', reason: excerpt(reason), ...(owner ? { owner } : {}) });
  };
  const onException = (error: unknown, origin: NodeJS.UncaughtExceptionOrigin): void => {
    const owner = hookCodeOwner();
    if (owner) handling.report({ kind: 'exception', reason: excerpt(error), owner });
    else fatal(error, origin);
  };
  // A throw in a `queueMicrotask` callback reaches `uncaughtException` with no async context, so
  // it would read as hookgate's own: a microtask queued by hook code is caught where it runs.
  const queueMicrotaskBefore = globalThis.queueMicrotask;
  const queueMicrotaskHeard = (callback: () => void): void => {
    const owner = hookCodeOwner();
    if (!owner || typeof callback !== 'function') {
      queueMicrotaskBefore(callback);
      return;
    }
    queueMicrotaskBefore(() => {
      try {
        callback();
      } catch (error) {
        handling.report({ kind: 'exception', reason: excerpt(error), owner });
      }
    });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  globalThis.queueMicrotask = queueMicrotaskHeard;
  const stop = (): void => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
    if (globalThis.queueMicrotask === queueMicrotaskHeard) globalThis.queueMicrotask = queueMicrotaskBefore;
  };

  /** Node's default for an uncaught exception, which a listener replaces: take the listener off and throw again. */
  function endAsNodeWould(error: unknown): void {
    stop();
    process.nextTick(() => {
      throw error;
    });
  }

  return stop;
}
