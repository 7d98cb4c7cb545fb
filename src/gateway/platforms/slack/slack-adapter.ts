import * as z from 'zod';
import type { SlackConfig } from '../../../config/gateway-config.ts';
import type { MessageEvent } from '../../message-event.ts';
import { jsonResponse, parsePayload, type PlatformAdapter } from '../../platform-adapter.ts';
import { verifySlackSignature } from './slack-signature.ts';

const SlackMessageEvent = z.looseObject({
  type: z.string(),
  subtype: z.string().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  text: z.string().optional(),
  channel: z.string().optional(),
  channel_type: z.string().optional(),
  ts: z.string().optional(),
  thread_ts: z.string().optional(),
});

const SlackPayload = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('url_verification'), challenge: z.string() }),
  z.looseObject({ type: z.literal('event_callback'), event_id: z.string().min(1), event: SlackMessageEvent }),
  z.looseObject({ type: z.literal('app_rate_limited') }),
]);

/** Subtypes that are still a person's text message; every other one (edits, joins, bots) starts no turn. */
const USER_SUBTYPES = new Set([undefined, 'thread_broadcast', 'file_share']);
const CHAT_TYPES: Record<string, string> = { im: 'dm', mpim: 'group', channel: 'group', group: 'group' };

/**
 * Slack Events API: signature and 5-minute window first, then `url_verification`
 * (answers the challenge) or an `event_callback` whose `message` event starts a turn.
 * Retries (`X-Slack-Retry-Num`) carry the same `event_id`, the dedup key. Messages from
 * bots, the bot's own included (`bot_id`, `bot_message`), and edits start no turn.
 * `app_mention` is not a turn of its own: the same text arrives as a `message` event.
 *
 * @example
 * const adapter = slackAdapter({ signingSecret, botToken, apiBaseUrl });
 */
export function slackAdapter(config: SlackConfig, now: () => number = Date.now): PlatformAdapter {
  return {
    platform: 'slack',
    async handle(request) {
      verifySlackSignature(request.headers, request.rawBody, config.signingSecret, now());
      const payload = parsePayload(request.rawBody, SlackPayload, 'slack payload');
      if (payload.type === 'url_verification') return { kind: 'respond', response: jsonResponse({ challenge: payload.challenge }) };
      if (payload.type !== 'event_callback') return { kind: 'respond', response: jsonResponse({ ok: true }) };
      const message = payload.event;
      if (
        message.type !== 'message' ||
        !USER_SUBTYPES.has(message.subtype) ||
        message.bot_id !== undefined ||
        !message.user ||
        !message.channel ||
        !message.ts ||
        message.text === undefined
      ) {
        return { kind: 'respond', response: jsonResponse({ ok: true }) };
      }
      const threadId = message.thread_ts ?? '';
      const source = {
        platform: 'slack',
        chat_id: message.channel,
        user_id: message.user,
        user_name: '',
        chat_type: CHAT_TYPES[message.channel_type ?? ''] ?? '',
        thread_id: threadId,
      };
      const event: MessageEvent = {
        text: message.text,
        message_id: message.ts,
        internal: false,
        source,
        reply: { platform: 'slack', chat_id: message.channel, thread_id: threadId, extra: {} },
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId: `slack:${payload.event_id}`, event }],
        acknowledge: () => jsonResponse({ ok: true }),
      };
    },
  };
}
