import { HookgateError } from '../errors/hookgate-error.ts';

/** Default per-callback deadline (`plugins.callback_timeout`, hook-semantics §5.8), in seconds. */
export const DEFAULT_CALLBACK_TIMEOUT_SECONDS = 30;

/** An in-process callback did not settle before its deadline; it counts as a callback that raised. */
export class CallbackDeadlineError extends HookgateError {
  override readonly name = 'CallbackDeadlineError';
  constructor(
    readonly timeoutMs: number,
    readonly elapsedMs: number,
  ) {
    super(`did not settle within ${seconds(timeoutMs)}s (gave up after ${seconds(elapsedMs)}s)`);
  }
}

const seconds = (ms: number) => String(Math.round(ms / 10) / 100);

/**
 * Awaits a callback's promise for at most `timeoutMs`: past it, rejects with
 * `CallbackDeadlineError` and the caller goes on; the promise's late result (or late
 * rejection) is ignored. `timeoutMs` of `Infinity` waits forever.
 *
 * @example
 * const value = await settleWithin(plugin.fn(kwargs), 30_000); // throws CallbackDeadlineError after 30 s
 */
export function settleWithin<T>(value: PromiseLike<T>, timeoutMs: number): Promise<T> {
  if (!Number.isFinite(timeoutMs)) return Promise.resolve(value);
  return new Promise<T>((resolve, reject) => {
    const started = performance.now();
    const timer = setTimeout(() => reject(new CallbackDeadlineError(timeoutMs, performance.now() - started)), timeoutMs);
    Promise.resolve(value).then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
