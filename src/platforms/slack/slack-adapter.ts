import * as z from '../../validation/zod.ts';
import type { SlackConfig } from './slack-config.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { kindOfMime, type Attachment } from '../../messaging/attachment.ts';
import { jsonResponse, parsePayload, validatePayload, type PlatformAdapter } from '../platform-adapter.ts';
import { verifySlackSignature } from './slack-signature.ts';

const SlackMessageEvent = z.looseObject({
  type: z.string(),
  subtype: z.optional(z.string()),
  user: z.optional(z.string()),
  bot_id: z.optional(z.string()),
  text: z.optional(z.string()),
  channel: z.optional(z.string()),
  channel_type: z.optional(z.string()),
  ts: z.optional(z.string()),
  thread_ts: z.optional(z.string()),
  /** `file_share` messages: https://docs.slack.dev/reference/events/message/file_share (File objects). */
  files: z.optional(
    z.array(
      z.looseObject({
        id: z.optional(z.string()),
        name: z.nullish(z.string()),
        title: z.nullish(z.string()),
        mimetype: z.optional(z.string()),
        size: z.optional(z.int().check(z.nonnegative())),
        mode: z.optional(z.string()),
        url_private: z.optional(z.string()),
        url_private_download: z.optional(z.string()),
      }),
    ),
  ),
});

const SlackAuthorization = z.looseObject({ user_id: z.optional(z.string()), is_bot: z.optional(z.boolean()) });

const SlackPayload = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('url_verification'), challenge: z.string() }),
  z.looseObject({
    type: z.literal('event_callback'),
    event_id: z.string().check(z.minLength(1)),
    // Only a message's fields are checked, once its type says it is one: other events carry
    // other shapes (channel_created's `channel` and user_change's `user` are objects), and a
    // verified event that starts no turn is acknowledged, not refused.
    event: z.looseObject({ type: z.string() }),
    authorizations: z.optional(z.array(SlackAuthorization)),
  }),
  z.looseObject({ type: z.literal('app_rate_limited') }),
]);

/** The event types that carry a person's message: `message.*` and `app_mention` (scope app_mentions:read). */
const MESSAGE_TYPES = new Set(['message', 'app_mention']);

/** Subtypes that are still a person's text message; every other one (edits, joins, bots) starts no turn. */
const USER_SUBTYPES = new Set([undefined, 'thread_broadcast', 'file_share', 'me_message']);
const CHAT_TYPES: Record<string, string> = { im: 'dm', mpim: 'group', channel: 'group', group: 'group' };

/**
 * `app_mention` events carry no `channel_type`; the channel id's first letter says it
 * (C public, G private or multi-person, D direct message).
 */
function chatTypeOf(channelType: string | undefined, channel: string): string {
  if (channelType !== undefined) return CHAT_TYPES[channelType] ?? '';
  if (channel.startsWith('D')) return 'dm';
  if (channel.startsWith('C') || channel.startsWith('G')) return 'group';
  return '';
}

/** `<@U123>` or `<@U123|name>` at the start of the text, and the blank after it. */
const LEADING_MENTION = /^<@([A-Z0-9]+)(?:\|[^>]*)?>\s*/;

/**
 * The text the agent sees: a leading mention of the bot is dropped — always for
 * `app_mention` (it is the mention that raised the event), and for `message` when the
 * mentioned id is a bot user the event was delivered for — so both events of one message
 * read the same.
 */
function messageText(text: string, type: string, botUserIds: ReadonlySet<string>): string {
  const mention = LEADING_MENTION.exec(text);
  if (!mention) return text;
  return type === 'app_mention' || botUserIds.has(mention[1]!) ? text.slice(mention[0].length) : text;
}

/**
 * Slack Events API: signature and 5-minute window first, then `url_verification`
 * (answers the challenge) or an `event_callback` whose `message` or `app_mention` event
 * starts a turn. The dedup key is the message itself, `slack:<channel>:<ts>`: Slack's
 * retries (`X-Slack-Retry-Num`) and the `message` + `app_mention` pair that a bot
 * subscribed to both receives for one message make one turn. Messages from bots, the
 * bot's own included (`bot_id`, `bot_message`), and edits start no turn.
 *
 * @example
 * const adapter = slackAdapter({ signingSecret, botToken, apiBaseUrl });
 */
export function slackAdapter(config: SlackConfig, now: () => number = Date.now): PlatformAdapter {
  return {
    platform: 'slack',
    async handle(request) {
      verifySlackSignature(request.headers, request.body, config.signingSecret, now());
      const payload = parsePayload(request.body, SlackPayload, 'slack payload');
      if (payload.type === 'url_verification')
        return { kind: 'respond', response: jsonResponse({ challenge: payload.challenge }) };
      if (payload.type !== 'event_callback') return { kind: 'respond', response: jsonResponse({ ok: true }) };
      if (!MESSAGE_TYPES.has(payload.event.type)) return { kind: 'respond', response: jsonResponse({ ok: true }) };
      const message = validatePayload(payload.event, SlackMessageEvent, 'slack payload: event');
      if (
        !USER_SUBTYPES.has(message.subtype) ||
        message.bot_id !== undefined ||
        !message.user ||
        !message.channel ||
        !message.ts ||
        message.text === undefined
      ) {
        return { kind: 'respond', response: jsonResponse({ ok: true }) };
      }
      const attachments = slackAttachments(message.files);
      const botUserIds = new Set(
        (payload.authorizations ?? []).filter((a) => a.is_bot === true && a.user_id).map((a) => a.user_id!),
      );
      const threadId = message.thread_ts ?? '';
      const source = {
        platform: 'slack',
        chat_id: message.channel,
        user_id: message.user,
        user_name: '',
        chat_type: chatTypeOf(message.channel_type, message.channel),
        thread_id: threadId,
      };
      const event: MessageEvent = {
        text: messageText(message.text, message.type, botUserIds),
        message_id: message.ts,
        internal: false,
        source,
        reply: { platform: 'slack', chat_id: message.channel, thread_id: threadId, extra: {} },
        ...(attachments.length > 0 ? { attachments } : {}),
      };
      return {
        kind: 'deliver',
        deliveries: [
          {
            deliveryId: `slack:${message.channel}:${message.ts}`,
            event,
            ...(isSlackRetry(request.headers) ? { retry: true } : {}),
          },
        ],
        acknowledge: () => jsonResponse({ ok: true }),
      };
    },
  };
}

/**
 * A `file_share` message's files that can be downloaded with the bot token: hosted ones with
 * a private URL. Slack Connect stubs (`file_access: check_file_info`, no URL), external and
 * deleted files (`mode` external / tombstone) are left out.
 */
function slackAttachments(files: z.infer<typeof SlackMessageEvent>['files']): Attachment[] {
  const out: Attachment[] = [];
  for (const file of files ?? []) {
    const url = file.url_private_download ?? file.url_private;
    if (!url || file.mode === 'external' || file.mode === 'tombstone') continue;
    const mime = file.mimetype || 'application/octet-stream';
    out.push({
      kind: kindOfMime(mime),
      mime_type: mime,
      size: file.size ?? null,
      name: file.name || file.title || file.id || 'file',
      source: { platform: 'slack', url },
    });
  }
  return out;
}

/**
 * Slack numbers its retries 1, 2, 3 (`X-Slack-Retry-Num`). The header is outside the signature, so a
 * value of another shape is not taken as Slack's word that this is a retry.
 */
function isSlackRetry(headers: Headers): boolean {
  return /^[1-9][0-9]{0,2}$/.test(headers.get('x-slack-retry-num') ?? '');
}
