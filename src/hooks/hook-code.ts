import { AsyncLocalStorage } from 'node:async_hooks';

/** Whose code runs: a plugin (its `register`, callbacks and commands) or a gateway hook (its module and handler). */
export interface HookCodeOwner {
  readonly kind: 'plugin' | 'gateway hook';
  /** The plugin's or the gateway hook's name. */
  readonly name: string;
}

const owner = new AsyncLocalStorage<HookCodeOwner>();

/**
 * Calls `fn(...args)`, the operator's in-process hook code, so that everything it starts (timers,
 * callbacks, promises) carries `who`. An exception thrown later from that work, with none of
 * hookgate's code on its stack to catch it, can then be told apart from one of hookgate's own
 * ({@link hookCodeOwner}). Shell, http and prompt hooks run outside the process and are not
 * wrapped: their callbacks are hookgate's code.
 *
 * @example
 * const value = runAsHookCode({ kind: 'plugin', name: 'guard' }, guard, kwargs);
 */
export function runAsHookCode<A extends unknown[], R>(who: HookCodeOwner, fn: (...args: A) => R, ...args: A): R {
  return owner.run(who, fn, ...args);
}

/**
 * The hook whose work is running now, if any: read inside a `process` listener for
 * `uncaughtException` or `unhandledRejection`, it names the hook that started the failed work
 * (Node runs those listeners in the async context of the failure; a `queueMicrotask` callback is
 * the one case it does not, which stray-hook-errors.ts catches where it runs).
 *
 * @example
 * process.on('uncaughtException', () => console.log(hookCodeOwner())); // { kind: 'plugin', name: 'guard' }
 */
export function hookCodeOwner(): HookCodeOwner | undefined {
  return owner.getStore();
}

/** How a log line names an owner: `plugin guard`, `gateway hook audit`. */
export function describeHookCodeOwner(who: HookCodeOwner): string {
  return `${who.kind} ${who.name}`;
}
