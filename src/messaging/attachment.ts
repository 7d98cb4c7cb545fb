import * as z from '../validation/zod.ts';

/** What an attachment is, as the model and the hooks are told. */
export const AttachmentKindSchema = z.enum(['image', 'file', 'audio', 'video']);
export type AttachmentKind = z.infer<typeof AttachmentKindSchema>;

/**
 * Where the bytes are, in the platform's own terms; the turn fetches them with the
 * platform's download API (docs/attachments.md). Never shown to hooks: a URL here may need
 * the bot's token.
 */
export const AttachmentSourceSchema = z.discriminatedUnion('platform', [
  /** Bot API `getFile`, then `{base}/file/bot<token>/<file_path>`. */
  z.object({ platform: z.literal('telegram'), file_id: z.string().check(z.minLength(1)) }),
  /** `url_private_download` (or `url_private`), with the bot token as bearer. */
  z.object({ platform: z.literal('slack'), url: z.string().check(z.minLength(1)) }),
  /** The attachment's CDN URL (signed by Discord; no token). */
  z.object({ platform: z.literal('discord'), url: z.string().check(z.minLength(1)) }),
  /** Graph API `GET {base}/<media id>` for a short-lived URL, fetched with the access token. */
  z.object({ platform: z.literal('whatsapp'), media_id: z.string().check(z.minLength(1)) }),
  /** `contentUrl`; `auth` = under the activity's serviceUrl, fetched with the bot's token. */
  z.object({ platform: z.literal('teams'), url: z.string().check(z.minLength(1)), auth: z.boolean() }),
  /** The local adapter's `data_base64`, carried in the turn message. */
  z.object({ platform: z.literal('local'), data_base64: z.string() }),
]);
export type AttachmentSource = z.infer<typeof AttachmentSourceSchema>;

/**
 * One photo, file, voice note or video of an inbound message, as the platform described it:
 * the MIME type and size here are the platform's claims (the turn sniffs and measures the
 * bytes it downloads); `size` is null when the platform does not say.
 */
export const AttachmentSchema = z.object({
  kind: AttachmentKindSchema,
  mime_type: z.string(),
  size: z.nullable(z.int().check(z.nonnegative())),
  name: z.string(),
  source: AttachmentSourceSchema,
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** At most this many attachments per message (Slack and Discord allow 10). */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/**
 * The kind a MIME type stands for: `image/*` is an image, `audio/*` audio, `video/*` video,
 * anything else a file.
 *
 * @example
 * kindOfMime('image/png'); // 'image'
 */
export function kindOfMime(mime: string): AttachmentKind {
  const top = mime.split('/', 1)[0]?.toLowerCase();
  return top === 'image' ? 'image' : top === 'audio' ? 'audio' : top === 'video' ? 'video' : 'file';
}

/**
 * What hooks see of an attachment at the gateway (`pre_gateway_dispatch`): kind, MIME type,
 * size and name, never the download reference.
 *
 * @example
 * attachmentSummary(attachment); // { kind: 'image', mime_type: 'image/jpeg', size: 1234, name: 'photo.jpg' }
 */
export function attachmentSummary(attachment: Attachment): {
  kind: AttachmentKind;
  mime_type: string;
  size: number | null;
  name: string;
} {
  return { kind: attachment.kind, mime_type: attachment.mime_type, size: attachment.size, name: attachment.name };
}
