import { isObject } from './is-object.ts';

/**
 * The `pre_tool_call` block rule (hook-semantics §1.5): the message of the first result
 * that is an object with `action === "block"` and a non-empty string `message`. Anything
 * else is ignored silently. `undefined` means the call is allowed.
 *
 * @example
 * blockMessage([{ action: 'block' }, 'block', { action: 'block', message: 'no' }]); // 'no'
 */
export function blockMessage(results: readonly unknown[]): string | undefined {
  for (const result of results) {
    try {
      if (!isObject(result) || result.action !== 'block') continue;
      const message = result.message;
      if (typeof message === 'string' && message !== '') return message;
    } catch {
      // A getter that throws (a Proxy, an accessor): not a valid directive.
    }
  }
  return undefined;
}
