import { setTimeout as sleepFor } from 'node:timers/promises';
import { ReplyError } from './reply-error.ts';
import { errorText } from '../errors/error-text.ts';

/** How a platform send is retried; every delay is bounded by `maxDelayMs`. */
export interface ReplyRetryPolicy {
  /** Tries in all, the first included (≥ 1). Default 4. */
  attempts: number;
  /** The first backoff; it doubles per retry (with jitter). Default 500 ms. */
  baseDelayMs: number;
  /**
   * No wait is longer. A platform that asks for a longer pause (`Retry-After`, Telegram's
   * `retry_after`) is not tried again early: the send gives up then. Default 20 s.
   */
  maxDelayMs: number;
}

export const DEFAULT_REPLY_RETRY: ReplyRetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 20_000 };

/**
 * The gateway's own replies (a command's answer, a refusal) are sent before the webhook is
 * acknowledged, and platforms redeliver a webhook not answered within seconds (Slack: 3 s):
 * at most two tries, no wait over one second, whatever the deployment allows turns.
 */
export function gatewayReplyRetry(configured: Partial<ReplyRetryPolicy> = {}): ReplyRetryPolicy {
  const policy = { ...DEFAULT_REPLY_RETRY, ...configured };
  return {
    attempts: Math.min(policy.attempts, 2),
    baseDelayMs: Math.min(policy.baseDelayMs, 250),
    maxDelayMs: Math.min(policy.maxDelayMs, 1_000),
  };
}

/** A send that failed for good: the last error and how many tries were made. */
export class ReplyUndeliveredError extends ReplyError {
  override readonly name = 'ReplyUndeliveredError';
  constructor(
    readonly lastError: ReplyError,
    readonly attempts: number,
  ) {
    super(
      lastError.platform,
      `${lastError.message.replace(/^\S+ reply failed: /, '')} (after ${attempts} ${attempts === 1 ? 'try' : 'tries'})`,
      lastError.status,
    );
  }
}

export interface RetryingSend {
  /**
   * Runs `send` until it succeeds, fails with a permanent error, or the tries run out;
   * rejects then with `ReplyUndeliveredError`.
   */
  run(send: () => Promise<unknown>): Promise<void>;
}

/**
 * Retries a platform send on what may pass (network failures, 429, 5xx), waiting
 * `Retry-After` / `retry_after` when the platform names a pause, else an exponential
 * backoff with full jitter. Permanent failures (4xx) are not retried.
 *
 * @example
 * const retry = retryingSend({ attempts: 3, baseDelayMs: 10, maxDelayMs: 100 });
 * await retry.run(() => postJson('telegram', url, body));
 */
export function retryingSend(
  policy: Partial<ReplyRetryPolicy> = {},
  sleep: (ms: number) => Promise<unknown> = (ms) => sleepFor(ms),
  random: () => number = Math.random,
): RetryingSend {
  const { attempts, baseDelayMs, maxDelayMs } = { ...DEFAULT_REPLY_RETRY, ...policy };
  const tries = Math.max(1, Math.floor(attempts));
  return {
    async run(send) {
      for (let attempt = 1; ; attempt++) {
        try {
          await send();
          return;
        } catch (error) {
          const failure = error instanceof ReplyError ? error : new ReplyError('unknown', errorText(error));
          if (!failure.retryable || attempt >= tries) throw new ReplyUndeliveredError(failure, attempt);
          const asked = failure.retryAfterMs;
          if (asked !== undefined && asked > maxDelayMs) throw new ReplyUndeliveredError(failure, attempt);
          const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
          await sleep(asked ?? Math.round(random() * backoff));
        }
      }
    },
  };
}
