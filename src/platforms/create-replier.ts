import { createDynamoTable } from '../store/dynamo-table.ts';
import { DynamoLocalOutboxStore, type LocalOutboxStore } from '../store/local-outbox-store.ts';
import type { ReplyTarget } from '../messaging/message-event.ts';
import { sendDiscordReply, type DiscordReplyOptions } from './discord/discord-reply.ts';
import { sendSlackReply, type SlackReplyOptions } from './slack/slack-reply.ts';
import { sendTeamsReply } from './teams/teams-reply.ts';
import { TeamsTokenSource, type TeamsReplyOptions } from './teams/teams-token-source.ts';
import { sendTelegramReply, type TelegramReplyOptions } from './telegram/telegram-reply.ts';
import { sendWhatsAppReply, type WhatsAppReplyOptions } from './whatsapp/whatsapp-reply.ts';
import { ReplyError } from '../messaging/reply-error.ts';
import type { Replier } from '../messaging/replier.ts';
import { retryingSend, type ReplyRetryPolicy } from '../messaging/reply-retry.ts';

/**
 * What `createReplier` reads of the deployment's configuration: the enabled platforms' reply
 * credentials, the retry policy and the table of the local outbox. The gateway's
 * `GatewayConfig` has this shape; platforms/ does not import it (architecture §2).
 */
export interface ReplierConfig {
  platforms: {
    telegram?: TelegramReplyOptions;
    slack?: SlackReplyOptions;
    discord?: DiscordReplyOptions;
    whatsapp?: WhatsAppReplyOptions;
    teams?: TeamsReplyOptions;
    local?: Record<string, never>;
  };
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
 * The `Replier` for every enabled platform, chosen by `target.platform`: Telegram
 * `sendMessage`, Slack `chat.postMessage`, Discord interaction follow-up, WhatsApp messages
 * endpoint, Teams reply-to-activity (bot token from `TEAMS_TOKEN_URL`), local → outbox.
 * Each piece of a reply is retried on network errors, 429 and 5xx (`Retry-After` /
 * `retry_after` honoured, backoff bounded by `config.replyRetry`); a piece that went through
 * is never sent again. A send that fails for good rejects with `ReplyUndeliveredError`.
 *
 * @example
 * const replier = createReplier(loadDeploymentConfig(process.env));
 * await replier.send(event.reply, 'You said: hi');
 */
export function createReplier(config: ReplierConfig, options: CreateReplierOptions = {}): Replier {
  const { telegram, slack, discord, whatsapp, teams, local } = config.platforms;
  const teamsTokens = teams ? new TeamsTokenSource(teams) : undefined;
  const retry = retryingSend({ ...config.replyRetry, ...options.retry }, options.sleep);
  let outbox = options.outbox;
  const localOutbox = (): LocalOutboxStore => {
    if (outbox) return outbox;
    const tableName = config.resources.tableName;
    if (!tableName) throw new ReplyError('local', 'no table configured for the local outbox', 500);
    outbox = new DynamoLocalOutboxStore(createDynamoTable({ tableName }));
    return outbox;
  };

  return {
    async send(target: ReplyTarget, text: string): Promise<void> {
      switch (target.platform) {
        case 'telegram':
          if (telegram) return sendTelegramReply(telegram, target, text, retry);
          break;
        case 'slack':
          if (slack) return sendSlackReply(slack, target, text, retry);
          break;
        case 'discord':
          if (discord) return sendDiscordReply(discord, target, text, retry);
          break;
        case 'whatsapp':
          if (whatsapp) return sendWhatsAppReply(whatsapp, target, text, retry);
          break;
        case 'teams':
          if (teamsTokens) return sendTeamsReply(teamsTokens, target, text, retry);
          break;
        case 'local':
          if (local) return localOutbox().append(target.chat_id, text);
          break;
      }
      throw new ReplyError(target.platform, 'platform is not enabled in this deployment', 400);
    },
  };
}
