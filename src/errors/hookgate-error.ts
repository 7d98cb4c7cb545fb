/**
 * The base of every error hookgate throws: `catch (e) { if (e instanceof HookgateError) … }`
 * tells hookgate's own failures from a library's or a hook's. Each subclass names itself
 * (`name` is its class name, which minified bundles would otherwise lose); the HTTP-facing
 * ones (the gateway's `WebhookError`s, `ReplyError`) also carry their status.
 *
 * @example
 * ```ts
 * export class TimerScheduleError extends HookgateError {
 *   override readonly name = 'TimerScheduleError';
 * }
 * ```
 */
export abstract class HookgateError extends Error {
  abstract override readonly name: string;
}
