import * as z from 'zod';
import type { TelegramConfig } from '../../../config/deployment-config.ts';
import { constantTimeEqual } from '../../constant-time-equal.ts';
import type { MessageEvent } from '../../../messaging/message-event.ts';
import { jsonResponse, parsePayload, type PlatformAdapter } from '../../platform-adapter.ts';
import { InvalidSignatureError } from '../../webhook-errors.ts';

const TelegramMessage = z.looseObject({
  message_id: z.number().int(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  from: z.looseObject({ id: z.number().int(), is_bot: z.boolean().optional(), first_name: z.string().optional(), username: z.string().optional() }).optional(),
  // `type` is always sent, but the webhook guide's curl examples leave it out.
  chat: z.looseObject({ id: z.number().int(), type: z.string().optional(), is_forum: z.boolean().optional() }),
  text: z.string().optional(),
});

/** An Update (https://core.telegram.org/bots/api#update): only `message` with text starts a turn. */
const TelegramUpdate = z.looseObject({ update_id: z.number().int(), message: TelegramMessage.optional() });

const CHAT_TYPES: Record<string, string> = { private: 'dm', group: 'group', supergroup: 'group', channel: 'channel' };

/**
 * Telegram webhooks: the `X-Telegram-Bot-Api-Secret-Token` set with `setWebhook` is
 * compared in constant time; the dedup key is the `update_id`. `edited_message`, channel
 * posts, callbacks and non-text messages are acknowledged and start no turn.
 *
 * @example
 * const adapter = telegramAdapter({ botToken, secretToken, apiBaseUrl });
 * const verdict = await adapter.handle({ method: 'POST', url, headers, rawBody });
 */
export function telegramAdapter(config: TelegramConfig): PlatformAdapter {
  return {
    platform: 'telegram',
    async handle(request) {
      const secret = request.headers.get('x-telegram-bot-api-secret-token') ?? '';
      if (!constantTimeEqual(secret, config.secretToken)) {
        throw new InvalidSignatureError('telegram: X-Telegram-Bot-Api-Secret-Token does not match');
      }
      const update = parsePayload(request.rawBody, TelegramUpdate, 'telegram update');
      const message = update.message;
      if (!message || message.text === undefined || message.from?.is_bot) {
        return { kind: 'respond', response: jsonResponse({ ok: true }) };
      }
      const topic = message.is_topic_message && message.message_thread_id !== undefined;
      // Without a type, the id says it: people have positive ids, groups and channels negative ones.
      const chatType = topic ? 'forum' : message.chat.type === undefined ? (message.chat.id > 0 ? 'dm' : 'group') : (CHAT_TYPES[message.chat.type] ?? '');
      const source = {
        platform: 'telegram',
        chat_id: String(message.chat.id),
        user_id: message.from ? String(message.from.id) : null,
        user_name: message.from?.username ?? message.from?.first_name ?? '',
        chat_type: chatType,
        thread_id: topic ? String(message.message_thread_id) : '',
      };
      const event: MessageEvent = {
        text: message.text,
        message_id: String(message.message_id),
        internal: false,
        source,
        reply: { platform: 'telegram', chat_id: source.chat_id, thread_id: source.thread_id, extra: {} },
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId: `telegram:${update.update_id}`, event }],
        acknowledge: () => jsonResponse({ ok: true }),
      };
    },
  };
}
