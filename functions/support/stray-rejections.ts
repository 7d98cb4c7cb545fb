import { reportStrayRejections } from '../../src/hooks/stray-rejections.ts';

/** The `message` of the log line a stray rejection writes, for a reader. */
export const STRAY_REJECTION_MESSAGE = "a promise rejected with no handler (a hook's unawaited work?); the instance goes on";

/** The `event` of that line, for the stack's metric filter and dashboard: a plain word no filter syntax can trip on. */
export const STRAY_REJECTION_EVENT = 'stray_rejection';

/**
 * Makes a hook's stray rejection a line in the function's log, not the end of the instance.
 * Lambda's Node.js runtime listens for unhandled rejections itself, from before it loads the
 * function, and ends the process on one (`Runtime.UnhandledPromiseRejection`, exit 128): the
 * invocation in flight fails with it, a webhook answered 502 or a whole batch of turns tried
 * again, hooks and all. This takes that listener off and writes one ERROR line per rejection
 * instead (`reportStrayRejections`: the reason redacted and cut). Uncaught exceptions keep the
 * runtime's handling. Call it first in a function that runs hooks.
 *
 * @example
 * keepServingOnStrayRejections('hookgate-turn');
 */
export function keepServingOnStrayRejections(service: string, env: NodeJS.ProcessEnv = process.env): void {
  // Under Lambda's runtime only (it sets AWS_LAMBDA_RUNTIME_API): elsewhere, in a test that
  // imports a built function, the listeners there are someone else's.
  if (env.AWS_LAMBDA_RUNTIME_API) process.removeAllListeners('unhandledRejection');
  reportStrayRejections((reason) =>
    process.stdout.write(
      `${JSON.stringify({ level: 'ERROR', message: STRAY_REJECTION_MESSAGE, event: STRAY_REJECTION_EVENT, service, timestamp: new Date().toISOString(), reason })}\n`,
    ),
  );
}
