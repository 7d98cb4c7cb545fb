import type { ReplyTarget } from '../messaging/message-event.ts';
import { ReplyError } from '../messaging/reply-error.ts';
import type { Replier } from '../messaging/replier.ts';
import { retryingSend, type ReplyRetryPolicy } from '../messaging/reply-retry.ts';
import type { LocalOutboxStore } from '../store/local-outbox-store.ts';
import type { ReplySender } from './platform.ts';
import { ANY_PLATFORMS, type ReplyPlatforms } from './registry.ts';

/**
 * What `createReplier` reads of the deployment's configuration: the enabled platforms' reply
 * credentials, the retry policy and the table of the local outbox. The gateway's
 * `GatewayConfig` has this shape; platforms/ does not import it (architecture §2).
 */
export interface ReplierConfig {
  platforms: ReplyPlatforms;
  replyRetry?: Partial<ReplyRetryPolicy>;
  resources: { tableName?: string };
}

export interface CreateReplierOptions {
  /**
   * Where `local` replies go. Default: the table of `config.resources.tableName`, with the
   * SDK's default client (endpoint from `AWS_ENDPOINT_URL_DYNAMODB` when set).
   */
  outbox?: LocalOutboxStore;
  /** Overrides `config.replyRetry` (tests). */
  retry?: Partial<ReplyRetryPolicy>;
  /** How retries wait (tests pass one that records the delay and returns at once). */
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * The `Replier` for every enabled platform, chosen by `target.platform` among the registry's
 * reply senders (platforms/registry.ts): Telegram `sendMessage`, Slack `chat.postMessage`,
 * Discord interaction follow-up, WhatsApp messages endpoint, Teams reply-to-activity (bot
 * token from `TEAMS_TOKEN_URL`), local → outbox.
 * Each piece of a reply is retried on network errors, 429 and 5xx (`Retry-After` /
 * `retry_after` honoured, backoff bounded by `config.replyRetry`); a piece that went through
 * is never sent again. A send that fails for good rejects with `ReplyUndeliveredError`.
 *
 * @example
 * const replier = createReplier(loadDeploymentConfig(process.env));
 * await replier.send(event.reply, 'You said: hi');
 */
export function createReplier(config: ReplierConfig, options: CreateReplierOptions = {}): Replier {
  const retry = retryingSend({ ...config.replyRetry, ...options.retry }, options.sleep);
  const context = {
    retry,
    ...(config.resources.tableName ? { tableName: config.resources.tableName } : {}),
    ...(options.outbox ? { outbox: options.outbox } : {}),
  };
  const senders = new Map<string, ReplySender>();
  const configs: Partial<Record<string, unknown>> = config.platforms;
  for (const platform of ANY_PLATFORMS) {
    const settings = configs[platform.name];
    if (settings !== undefined) senders.set(platform.name, platform.createReplySender(settings, context));
  }

  return {
    async send(target: ReplyTarget, text: string): Promise<void> {
      const sender = senders.get(target.platform);
      if (!sender) throw new ReplyError(target.platform, 'platform is not enabled in this deployment', 400);
      return sender(target, text);
    },
  };
}
