import * as z from '../../validation/zod.ts';
import type { TeamsConfig } from './teams-config.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { kindOfMime, type Attachment } from '../../messaging/attachment.ts';
import { jsonResponse, parsePayload, type PlatformAdapter } from '../platform-adapter.ts';
import { InvalidSignatureError } from '../webhook-errors.ts';
import { TeamsJwtVerifier } from './teams-jwt-verifier.ts';

const Activity = z.looseObject({
  type: z.string(),
  id: z.string().check(z.minLength(1)),
  serviceUrl: z.url(),
  // Bot Framework's channel ids are short words (`msteams`, `webchat`); a refusal quotes it, so it stays short.
  channelId: z.optional(z.string().check(z.maxLength(100))),
  from: z.looseObject({ id: z.string(), name: z.optional(z.string()) }),
  conversation: z.looseObject({
    id: z.string().check(z.minLength(1)),
    conversationType: z.optional(z.string()),
    isGroup: z.optional(z.boolean()),
  }),
  recipient: z.optional(z.looseObject({ id: z.string() })),
  text: z.optional(z.string()),
  replyToId: z.optional(z.string()),
  attachments: z.optional(
    z.array(
      z.looseObject({
        contentType: z.string(),
        contentUrl: z.optional(z.string()),
        name: z.optional(z.string()),
        content: z.optional(z.unknown()),
      }),
    ),
  ),
});

/** A file sent to the bot in a personal chat: https://learn.microsoft.com/microsoftteams/platform/bots/how-to/bots-filesv4 */
const FILE_DOWNLOAD_INFO = 'application/vnd.microsoft.teams.file.download.info';
const FileDownloadInfo = z.looseObject({ downloadUrl: z.string(), fileType: z.optional(z.string()) });

const CHAT_TYPES: Record<string, string> = { personal: 'dm', groupChat: 'group', channel: 'channel' };
const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * `<at>Bot</at> hello` → `hello`: mentions of the bot are markup, not words. Each goes with
 * the whitespace after it; the user's own spacing (indented code, blank lines) is kept.
 */
const stripMentions = (text: string) => text.replace(/<at>[^<]*<\/at>\s*/g, '').trim();

/**
 * Microsoft Teams (Bot Framework): the bearer JWT must verify against the OpenID metadata
 * and its JWKS, with audience = the app id, and its `serviceUrl` claim must equal the
 * activity's (that is why replies may go to that serviceUrl). `message` activities with
 * text start a turn (dedup key = conversation + activity id); every other activity
 * (conversationUpdate, typing, …) is acknowledged.
 *
 * @example
 * const adapter = teamsAdapter({ appId, appPassword, openIdMetadataUrl, tokenUrl });
 */
export function teamsAdapter(config: TeamsConfig): PlatformAdapter {
  const verifier = new TeamsJwtVerifier(config.openIdMetadataUrl, config.appId);
  return {
    platform: 'teams',
    async handle(request) {
      const { claims, endorsements } = await verifier.verify(request.headers.get('authorization'));
      const activity = parsePayload(request.body, Activity, 'teams activity');
      if (typeof claims.serviceUrl !== 'string' || !sameUrl(claims.serviceUrl, activity.serviceUrl)) {
        throw new InvalidSignatureError('teams: the token serviceUrl claim does not match the activity');
      }
      // A key that lists the channels it endorses vouches for those alone (Bot Framework's endorsement check).
      if (endorsements && activity.channelId !== undefined && !endorsements.includes(activity.channelId)) {
        throw new InvalidSignatureError(`teams: the signing key does not endorse channel ${JSON.stringify(activity.channelId)}`);
      }
      const attachments = teamsAttachments(activity.attachments, activity.serviceUrl);
      if (activity.type !== 'message' || (activity.text === undefined && attachments.length === 0)) {
        return { kind: 'respond', response: jsonResponse({}) };
      }
      const conversationType =
        activity.conversation.conversationType ?? (activity.conversation.isGroup ? 'groupChat' : 'personal');
      const source = {
        platform: 'teams',
        chat_id: activity.conversation.id,
        user_id: activity.from.id,
        user_name: activity.from.name ?? '',
        chat_type: CHAT_TYPES[conversationType] ?? '',
        thread_id: '',
      };
      const event: MessageEvent = {
        text: stripMentions(activity.text ?? ''),
        message_id: activity.id,
        internal: false,
        source,
        reply: {
          platform: 'teams',
          chat_id: activity.conversation.id,
          thread_id: '',
          extra: { service_url: activity.serviceUrl, activity_id: activity.id },
        },
        ...(attachments.length > 0 ? { attachments } : {}),
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId: `teams:${activity.conversation.id}:${activity.id}`, event }],
        acknowledge: () => jsonResponse({}),
      };
    },
  };
}

/**
 * Inline images (`image/*` with a `contentUrl`; under the serviceUrl they need the bot's
 * token) and files sent in a personal chat (`file.download.info`, whose `downloadUrl` is
 * pre-authenticated). Cards and the `text/html` copy of the message are not attachments.
 */
function teamsAttachments(list: z.infer<typeof Activity>['attachments'], serviceUrl: string): Attachment[] {
  const out: Attachment[] = [];
  const base = serviceUrl.replace(/\/+$/, '');
  for (const item of list ?? []) {
    if (item.contentType === FILE_DOWNLOAD_INFO) {
      const info = FileDownloadInfo.safeParse(item.content);
      if (!info.success) continue;
      out.push({
        kind: 'file',
        mime_type: 'application/octet-stream',
        size: null,
        name: item.name ?? `file.${info.data.fileType ?? 'bin'}`,
        source: { platform: 'teams', url: info.data.downloadUrl, auth: false },
      });
    } else if (item.contentUrl && /^(image|audio|video)\//.test(item.contentType)) {
      const mime = item.contentType === 'image/*' ? 'image/png' : item.contentType;
      out.push({
        kind: kindOfMime(mime),
        mime_type: mime,
        size: null,
        name: item.name ?? 'image',
        source: { platform: 'teams', url: item.contentUrl, auth: item.contentUrl.startsWith(`${base}/`) },
      });
    }
  }
  return out;
}
