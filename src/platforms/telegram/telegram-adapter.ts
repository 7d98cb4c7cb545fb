import * as z from '../../validation/zod.ts';
import type { TelegramConfig } from './telegram-config.ts';
import { constantTimeEqual } from '../../secrets/constant-time-equal.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { kindOfMime, type Attachment } from '../../messaging/attachment.ts';
import { jsonResponse, parsePayload, type PlatformAdapter } from '../platform-adapter.ts';
import { InvalidSignatureError } from '../webhook-errors.ts';

/** Document, Voice, Audio and Video share these fields (https://core.telegram.org/bots/api#document). */
const TelegramFile = z.looseObject({
  file_id: z.string().check(z.minLength(1)),
  file_unique_id: z.optional(z.string()),
  file_name: z.optional(z.string()),
  mime_type: z.optional(z.string()),
  file_size: z.optional(z.int().check(z.nonnegative())),
});

const TelegramMessage = z.looseObject({
  message_id: z.int(),
  message_thread_id: z.optional(z.int()),
  is_topic_message: z.optional(z.boolean()),
  from: z.optional(
    z.looseObject({
      id: z.int(),
      is_bot: z.optional(z.boolean()),
      first_name: z.optional(z.string()),
      username: z.optional(z.string()),
    }),
  ),
  // `type` is always sent, but the webhook guide's curl examples leave it out.
  chat: z.looseObject({ id: z.int(), type: z.optional(z.string()), is_forum: z.optional(z.boolean()) }),
  text: z.optional(z.string()),
  caption: z.optional(z.string()),
  /** https://core.telegram.org/bots/api#message: one PhotoSize per size, the largest last. */
  photo: z.optional(
    z.array(z.looseObject({ file_id: z.string(), file_unique_id: z.optional(z.string()), file_size: z.optional(z.int()) })),
  ),
  document: z.optional(TelegramFile),
  voice: z.optional(TelegramFile),
  audio: z.optional(TelegramFile),
  video: z.optional(TelegramFile),
});

/** An Update (https://core.telegram.org/bots/api#update): only `message` with text or an attachment starts a turn. */
const TelegramUpdate = z.looseObject({ update_id: z.int(), message: z.optional(TelegramMessage) });

const CHAT_TYPES: Record<string, string> = { private: 'dm', group: 'group', supergroup: 'group', channel: 'channel' };

/**
 * Telegram webhooks: the `X-Telegram-Bot-Api-Secret-Token` set with `setWebhook` is
 * compared in constant time; the dedup key is the `update_id`. A photo (its largest size),
 * document, voice note, audio file or video becomes an attachment and its caption the text.
 * `edited_message`, channel posts, callbacks and messages with neither (stickers,
 * locations…) are acknowledged and start no turn.
 *
 * @example
 * const adapter = telegramAdapter({ botToken, secretToken, apiBaseUrl });
 * const verdict = await adapter.handle({ method: 'POST', url, headers, body });
 */
export function telegramAdapter(config: TelegramConfig): PlatformAdapter {
  return {
    platform: 'telegram',
    async handle(request) {
      const secret = request.headers.get('x-telegram-bot-api-secret-token') ?? '';
      if (!constantTimeEqual(secret, config.secretToken)) {
        throw new InvalidSignatureError('telegram: X-Telegram-Bot-Api-Secret-Token does not match');
      }
      const update = parsePayload(request.body, TelegramUpdate, 'telegram update');
      const message = update.message;
      const attachments = message ? telegramAttachments(message) : [];
      if (!message || (message.text === undefined && attachments.length === 0) || message.from?.is_bot) {
        return { kind: 'respond', response: jsonResponse({ ok: true }) };
      }
      const topic = message.is_topic_message && message.message_thread_id !== undefined;
      // Without a type, the id says it: people have positive ids, groups and channels negative ones.
      const chatType = topic
        ? 'forum'
        : message.chat.type === undefined
          ? message.chat.id > 0
            ? 'dm'
            : 'group'
          : (CHAT_TYPES[message.chat.type] ?? '');
      const source = {
        platform: 'telegram',
        chat_id: String(message.chat.id),
        user_id: message.from ? String(message.from.id) : null,
        user_name: message.from?.username ?? message.from?.first_name ?? '',
        chat_type: chatType,
        thread_id: topic ? String(message.message_thread_id) : '',
      };
      const event: MessageEvent = {
        text: message.text ?? message.caption ?? '',
        message_id: String(message.message_id),
        internal: false,
        source,
        reply: { platform: 'telegram', chat_id: source.chat_id, thread_id: source.thread_id, extra: {} },
        ...(attachments.length > 0 ? { attachments } : {}),
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId: `telegram:${update.update_id}`, event }],
        acknowledge: () => jsonResponse({ ok: true }),
      };
    },
  };
}

/** The message's photo (largest size), document, voice, audio and video, in that order. */
function telegramAttachments(message: z.infer<typeof TelegramMessage>): Attachment[] {
  const out: Attachment[] = [];
  const photo = message.photo?.at(-1);
  if (photo) {
    // Telegram re-encodes photos as JPEG and gives them no name or MIME type.
    out.push({
      kind: 'image',
      mime_type: 'image/jpeg',
      size: photo.file_size ?? null,
      name: `photo_${photo.file_unique_id ?? photo.file_id.slice(0, 16)}.jpg`,
      source: { platform: 'telegram', file_id: photo.file_id },
    });
  }
  const files: [Attachment['kind'], z.infer<typeof TelegramFile> | undefined, string, string][] = [
    ['file', message.document, 'application/octet-stream', 'document'],
    ['audio', message.voice, 'audio/ogg', 'voice.ogg'],
    ['audio', message.audio, 'audio/mpeg', 'audio'],
    ['video', message.video, 'video/mp4', 'video.mp4'],
  ];
  for (const [kind, file, mime, name] of files) {
    if (!file) continue;
    // A document is whatever its MIME type says (an image sent "as a file" is still an image).
    out.push({
      kind: kind === 'file' ? kindOfMime(file.mime_type ?? mime) : kind,
      mime_type: file.mime_type ?? mime,
      size: file.file_size ?? null,
      name: file.file_name ?? name,
      source: { platform: 'telegram', file_id: file.file_id },
    });
  }
  return out;
}
