import { HookgateError } from '../errors/hookgate-error.ts';

/**
 * A platform's API refused or failed to take the bot's message. `retryable` is true for
 * network failures, 429 and 5xx (the caller may try again), false for 4xx.
 *
 * @example
 * try { await replier.send(target, text) } catch (e) { if (e instanceof ReplyError && e.retryable) … }
 */
export class ReplyError extends HookgateError {
  override readonly name: string = 'ReplyError';

  constructor(
    readonly platform: string,
    message: string,
    readonly status?: number,
    /** How long the platform asked to wait before trying again (`Retry-After`, Telegram `retry_after`). */
    readonly retryAfterMs?: number,
  ) {
    super(`${platform} reply failed: ${message}`);
  }

  get retryable(): boolean {
    return this.status === undefined || this.status === 429 || this.status >= 500;
  }
}
