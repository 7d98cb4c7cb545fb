import { describeHookCodeOwner } from '../../src/hooks/hook-code.ts';
import { keepServingAfterHookErrors, type StrayError } from '../../src/hooks/stray-hook-errors.ts';

/** The `message` of the log line a stray rejection writes, for a reader. */
export const STRAY_REJECTION_MESSAGE = "a promise rejected with no handler (a hook's unawaited work?); the instance goes on";

/** The `message` of the log line a hook's stray exception writes. */
export const STRAY_EXCEPTION_MESSAGE = "a hook's left-behind work threw (a timer, a listener); the instance goes on";

/**
 * The `event` of those lines, for the stack's metric filter and dashboard: plain words no filter
 * syntax can trip on.
 */
export const STRAY_ERROR_EVENTS = { rejection: 'stray_rejection', exception: 'stray_exception' } as const satisfies Record<
  StrayError['kind'],
  string
>;

/**
 * Makes a hook's stray failure a line in the function's log, not the end of the instance.
 * Lambda's Node.js runtime listens for unhandled rejections and uncaught exceptions itself, from
 * before it loads the function, and ends the process on either (`Runtime.UnhandledPromiseRejection`,
 * exit 128; an uncaught exception, exit 129): the invocation in flight fails with it, a webhook
 * answered 502 or a whole batch of turns tried again, hooks and all. This takes those listeners
 * off and writes one ERROR line per stray rejection, or per exception thrown from a plugin's or
 * gateway hook's left-behind work (`keepServingAfterHookErrors`: the reason redacted and cut, the
 * hook named). An uncaught exception from hookgate's own code still goes to the runtime's
 * listeners, which end the instance. Call it first in a function that runs hooks.
 *
 * @example
 * keepServingAfterStrayHookErrors('hookgate-turn');
 */
export function keepServingAfterStrayHookErrors(service: string, env: NodeJS.ProcessEnv = process.env): void {
  // Under Lambda's runtime only (it sets AWS_LAMBDA_RUNTIME_API): elsewhere, in a test that
  // imports a built function, the listeners there are someone else's.
  const runtime = env.AWS_LAMBDA_RUNTIME_API ? process.listeners('uncaughtException') : [];
  if (env.AWS_LAMBDA_RUNTIME_API) {
    process.removeAllListeners('unhandledRejection');
    process.removeAllListeners('uncaughtException');
  }
  keepServingAfterHookErrors({
    report: ({ kind, reason, owner }: StrayError) =>
      process.stdout.write(
        `${JSON.stringify({
          level: 'ERROR',
          message: kind === 'rejection' ? STRAY_REJECTION_MESSAGE : STRAY_EXCEPTION_MESSAGE,
          event: STRAY_ERROR_EVENTS[kind],
          service,
          timestamp: new Date().toISOString(),
          ...(owner ? { hook: describeHookCodeOwner(owner) } : {}),
          reason,
        })}\n`,
      ),
    // hookgate's own exception: the runtime reports it and ends the instance, as it would have.
    ...(runtime.length > 0
      ? {
          fatal: (error: unknown, origin: NodeJS.UncaughtExceptionOrigin) => {
            for (const listener of runtime) listener(error as Error, origin);
          },
        }
      : {}),
  });
}
