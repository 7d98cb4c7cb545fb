import * as z from '../../validation/zod.ts';
import type { WhatsAppConfig } from './whatsapp-config.ts';
import { constantTimeEqual } from '../../secrets/constant-time-equal.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { kindOfMime, type Attachment } from '../../messaging/attachment.ts';
import { jsonResponse, parsePayload, type Delivery, type PlatformAdapter } from '../platform-adapter.ts';
import { ForbiddenHandshakeError, MalformedPayloadError } from '../webhook-errors.ts';
import { verifyWhatsAppSignature } from './whatsapp-signature.ts';

/** The media object of image, document, audio and video messages (messages webhook reference). */
const WhatsAppMedia = z.looseObject({
  id: z.string().check(z.minLength(1)),
  mime_type: z.optional(z.string()),
  sha256: z.optional(z.string()),
  caption: z.optional(z.string()),
  filename: z.optional(z.string()),
  voice: z.optional(z.boolean()),
});
const MEDIA_TYPES = ['image', 'document', 'audio', 'video'] as const;

const WhatsAppMessage = z.looseObject({
  from: z.string(),
  id: z.string().check(z.minLength(1)),
  timestamp: z.optional(z.string()),
  type: z.string(),
  text: z.optional(z.looseObject({ body: z.string() })),
  // Checked one by one (mediaOf): a media object without an id starts no turn, the others still do.
  image: z.optional(z.unknown()),
  document: z.optional(z.unknown()),
  audio: z.optional(z.unknown()),
  video: z.optional(z.unknown()),
});
const ChangeValue = z.looseObject({
  messaging_product: z.optional(z.string()),
  // Not read: replies go out from WHATSAPP_PHONE_NUMBER_ID, whichever of the business's numbers the notification names.
  metadata: z.optional(z.looseObject({ phone_number_id: z.optional(z.string()) })),
  contacts: z.optional(
    z.array(
      z.looseObject({ wa_id: z.optional(z.string()), profile: z.optional(z.looseObject({ name: z.optional(z.string()) })) }),
    ),
  ),
  messages: z.optional(z.array(WhatsAppMessage)),
  statuses: z.optional(z.array(z.unknown())),
});
const Notification = z.looseObject({
  object: z.string(),
  entry: z.array(
    z.looseObject({ id: z.optional(z.string()), changes: z.array(z.looseObject({ field: z.string(), value: ChangeValue })) }),
  ),
});

/**
 * WhatsApp Cloud API: `GET` answers `hub.challenge` when `hub.verify_token` matches (else
 * 403); `POST` checks `X-Hub-Signature-256`, then every text, image, document, audio or
 * video message of every entry/change is one delivery (dedup key = message id; a media
 * message's caption is its text). `statuses` and other messages are acknowledged and start
 * no turn.
 *
 * @example
 * const adapter = whatsAppAdapter({ appSecret, verifyToken, accessToken, phoneNumberId, apiBaseUrl });
 */
export function whatsAppAdapter(config: WhatsAppConfig): PlatformAdapter {
  return {
    platform: 'whatsapp',
    async handle(request) {
      if (request.method === 'GET') {
        const params = request.url.searchParams;
        const mode = params.get('hub.mode');
        const token = params.get('hub.verify_token') ?? '';
        const challenge = params.get('hub.challenge');
        if (mode !== 'subscribe' || challenge === null) {
          throw new MalformedPayloadError('whatsapp: expected hub.mode=subscribe with hub.challenge and hub.verify_token');
        }
        if (!constantTimeEqual(token, config.verifyToken))
          throw new ForbiddenHandshakeError('whatsapp: hub.verify_token does not match');
        return { kind: 'respond', response: new Response(challenge, { status: 200, headers: { 'content-type': 'text/plain' } }) };
      }
      verifyWhatsAppSignature(request.headers, request.body, config.appSecret);
      const notification = parsePayload(request.body, Notification, 'whatsapp notification');
      const deliveries: Delivery[] = [];
      for (const entry of notification.entry) {
        for (const change of entry.changes) {
          if (change.field !== 'messages') continue;
          const value = change.value;
          for (const message of value.messages ?? []) {
            const media = mediaOf(message);
            if (message.type === 'text' ? message.text === undefined : !media) continue;
            const contact = value.contacts?.find((c) => c.wa_id === message.from);
            const source = {
              platform: 'whatsapp',
              chat_id: message.from,
              user_id: message.from,
              user_name: contact?.profile?.name ?? '',
              chat_type: 'dm',
              thread_id: '',
            };
            const attachments: Attachment[] = media ? [whatsAppAttachment(message.type, media)] : [];
            const event: MessageEvent = {
              text: message.text?.body ?? media?.caption ?? '',
              message_id: message.id,
              internal: false,
              source,
              reply: { platform: 'whatsapp', chat_id: message.from, thread_id: '', extra: {} },
              ...(attachments.length > 0 ? { attachments } : {}),
            };
            deliveries.push({ deliveryId: `whatsapp:${message.id}`, event });
          }
        }
      }
      if (deliveries.length === 0) return { kind: 'respond', response: jsonResponse({ ok: true }) };
      return { kind: 'deliver', deliveries, acknowledge: () => jsonResponse({ ok: true }) };
    },
  };
}

function whatsAppAttachment(type: string, media: z.infer<typeof WhatsAppMedia>): Attachment {
  const mime = media.mime_type ?? 'application/octet-stream';
  const kind = type === 'document' ? kindOfMime(mime) : type === 'image' ? 'image' : type === 'audio' ? 'audio' : 'video';
  const name = media.filename ?? `${media.voice ? 'voice' : type}_${media.id}`;
  return { kind, mime_type: mime, size: null, name, source: { platform: 'whatsapp', media_id: media.id } };
}

/** The media object of an image, document, audio or video message, when it has an id. */
function mediaOf(message: z.infer<typeof WhatsAppMessage>): z.infer<typeof WhatsAppMedia> | undefined {
  if (!(MEDIA_TYPES as readonly string[]).includes(message.type)) return undefined;
  const parsed = WhatsAppMedia.safeParse(message[message.type as (typeof MEDIA_TYPES)[number]]);
  return parsed.success ? parsed.data : undefined;
}
