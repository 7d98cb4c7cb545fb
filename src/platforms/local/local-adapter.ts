import { randomUUID } from 'node:crypto';
import * as z from '../../validation/zod.ts';
import type { MessageEvent } from '../../messaging/message-event.ts';
import { kindOfMime, MAX_ATTACHMENTS_PER_MESSAGE, type Attachment } from '../../messaging/attachment.ts';
import { jsonResponse, parsePayload, type PlatformAdapter } from '../platform-adapter.ts';
import { assertLoopbackJsonPost } from './loopback-json-only.ts';
import { MalformedPayloadError } from '../webhook-errors.ts';

const id = z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String));
const LocalAttachment = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(255)),
  mime_type: z.string().check(z.regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as image/png')),
  data_base64: z.base64('must be base64'),
});
const LocalMessage = z.object({
  chat_id: id,
  user_id: id,
  /** Required, as before attachments; may be left out only when there are attachments. */
  text: z.optional(z.string()),
  message_id: z.optional(id),
  attachments: z.optional(z.array(LocalAttachment).check(z.maxLength(MAX_ATTACHMENTS_PER_MESSAGE))),
});

/**
 * The chat id's part of a delivery id: `:` and `%` percent-encoded, so that the chat ends at the
 * first colon. Raw, chat `a:b` with message `c` and chat `a` with message `b:c` were one delivery
 * and the second post was acknowledged, then dropped as a duplicate. Ids without either
 * character are unchanged, so the dedup records a dev state already holds still match.
 */
const chatKey = (chatId: string) => chatId.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'));

/**
 * The unsigned `local` platform (local runs, or when explicitly enabled):
 * `{"chat_id","user_id","text"}` → 202 `{"delivery_id"}`; `"attachments": [{"name", "mime_type",
 * "data_base64"}]` carries files (in the turn message: the queue's 256 KB bounds them). Every post is a new delivery, unless it
 * carries a `message_id`: a re-post with the same one (in the same chat) is the same delivery
 * and is deduplicated, as a platform's retry would be. Only `application/json`, from this machine
 * (loopback `Host`, no `Origin` or a loopback one): see `assertLoopbackJsonPost`.
 *
 * @example
 * await fetch(`${url}/webhooks/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: 'c1', user_id: 'u1', text: 'hi' }) });
 */
export function localAdapter(newId: () => string = randomUUID): PlatformAdapter {
  return {
    platform: 'local',
    async handle(request) {
      assertLoopbackJsonPost(request);
      const message = parsePayload(request.body, LocalMessage, 'local message');
      const deliveryId =
        message.message_id === undefined ? `local:${newId()}` : `local:${chatKey(message.chat_id)}:${message.message_id}`;
      const source = {
        platform: 'local',
        chat_id: message.chat_id,
        user_id: message.user_id,
        user_name: '',
        chat_type: 'dm',
        thread_id: '',
      };
      const attachments = (message.attachments ?? []).map(
        (file): Attachment => ({
          kind: kindOfMime(file.mime_type),
          mime_type: file.mime_type,
          size: Buffer.byteLength(file.data_base64, 'base64'),
          name: file.name,
          source: { platform: 'local', data_base64: file.data_base64 },
        }),
      );
      if (message.text === undefined && attachments.length === 0)
        throw new MalformedPayloadError('local message: "text" is required (it may be left out only with "attachments")');
      const event: MessageEvent = {
        text: message.text ?? '',
        message_id: deliveryId,
        internal: false,
        source,
        reply: { platform: 'local', chat_id: message.chat_id, thread_id: '', extra: {} },
        ...(attachments.length > 0 ? { attachments } : {}),
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId, event }],
        acknowledge: () => jsonResponse({ delivery_id: deliveryId }, 202),
      };
    },
  };
}
