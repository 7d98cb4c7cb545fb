import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { MessageEvent } from '../../../messaging/message-event.ts';
import { jsonResponse, parsePayload, type PlatformAdapter } from '../../platform-adapter.ts';
import { assertLoopbackJsonPost } from './loopback-json-only.ts';

const id = z.union([z.string().min(1), z.number()]).transform(String);
const LocalMessage = z.object({ chat_id: id, user_id: id, text: z.string(), message_id: id.optional() });

/**
 * The unsigned `local` platform (local runs, or when explicitly enabled):
 * `{"chat_id","user_id","text"}` → 202 `{"delivery_id"}`. Every post is a new delivery, unless it
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
      const message = parsePayload(request.rawBody, LocalMessage, 'local message');
      const deliveryId = message.message_id === undefined ? `local:${newId()}` : `local:${message.chat_id}:${message.message_id}`;
      const source = { platform: 'local', chat_id: message.chat_id, user_id: message.user_id, user_name: '', chat_type: 'dm', thread_id: '' };
      const event: MessageEvent = {
        text: message.text,
        message_id: deliveryId,
        internal: false,
        source,
        reply: { platform: 'local', chat_id: message.chat_id, thread_id: '', extra: {} },
      };
      return {
        kind: 'deliver',
        deliveries: [{ deliveryId, event }],
        acknowledge: () => jsonResponse({ delivery_id: deliveryId }, 202),
      };
    },
  };
}
