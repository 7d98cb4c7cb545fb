import { MessageEventSchema } from '../messaging/message-event.ts';
import { messageTurn } from '../pipeline/turn-message.ts';
import { SQS_MAX_MESSAGE_BYTES, turnMessageBytes } from '../pipeline/turn-queue-sender.ts';
import type { Delivery } from '../platforms/platform-adapter.ts';
import { FieldTooLongError, MalformedPayloadError, PayloadTooLargeError } from '../platforms/webhook-errors.ts';

/**
 * The gateway's input limits, checked at the door, before anything is claimed or queued,
 * so that nothing acknowledged can fail later in a store or queue (docs/gateway.md, "Input
 * limits"):
 *
 * - message text: at most 40,000 UTF-16 code units (Slack's cap, the largest of the
 *   platforms; Telegram and WhatsApp stop at 4,096, Discord at 2,000/4,000) → 413;
 * - ids (`chat_id`, `user_id`, `thread_id`, `message_id`, the delivery id): at most 512
 *   UTF-8 bytes each → 400. They become DynamoDB keys (2,048 bytes per partition key, with
 *   prefixes), so three of them must fit in one key;
 * - `user_name`: at most 1,024 UTF-8 bytes → 400;
 * - the reply target's platform fields (`reply.extra`: Discord's interaction token, Teams' service URL, WhatsApp's
 *   number id): at most 2,048 UTF-8 bytes each → 400. The reply puts them in a URL, which a longer one would not
 *   fit (a platform API answers 414 or 431), or which a lone surrogate would break, after the message was taken;
 * - text and ids must be well-formed Unicode: a lone surrogate (`\ud800` in JSON) cannot be
 *   encoded as UTF-8, so no platform sends one and no store could keep it → 400;
 * - anything else the turn queue's schema refuses (more than 10 attachments, Slack's and
 *   Discord's cap; an attachment with a negative size, an empty file id or URL) → 400: the queue
 *   checks the message again before sending it, and its refusal, after the claim, is answered
 *   503, which the platform retries to the same end;
 * - the message's size as a turn message on the queue (SQS takes 256 KiB) → 413: file names and
 *   URLs have no limit of their own.
 */
export const INPUT_LIMITS = {
  textChars: 40_000,
  idBytes: 512,
  nameBytes: 1_024,
  replyFieldBytes: 2_048,
} as const;

/**
 * Throws the `WebhookError` for the first field of `delivery` over its limit.
 *
 * @example
 * checkDeliveryLimits({ deliveryId: 'local:1', event }); // throws FieldTooLongError (400) for a 5,000-char chat_id
 */
export function checkDeliveryLimits({ deliveryId, event }: Delivery): void {
  const { source } = event;
  checkText('text', event.text);
  checkId('delivery id', deliveryId);
  checkId('message_id', event.message_id);
  checkId('chat_id', source.chat_id);
  // The session and the reply are the chat's: a message from no chat (a signed body with an empty
  // `channel_id` or `from`) would share one session with every other such message.
  if (source.chat_id === '') throw new MalformedPayloadError('chat_id is empty: the message names no chat');
  if (source.user_id !== null) checkId('user_id', source.user_id);
  checkId('thread_id', source.thread_id);
  checkId('chat_id of the reply target', event.reply.chat_id);
  checkId('thread_id of the reply target', event.reply.thread_id);
  checkBytes('user_name', source.user_name, INPUT_LIMITS.nameBytes);
  for (const [key, value] of Object.entries(event.reply.extra))
    checkBytes(`${key} of the reply target`, value, INPUT_LIMITS.replyFieldBytes);
  // Last, what the adapters do not check themselves: the same schema the turn queue applies.
  const queued = MessageEventSchema.safeParse(event);
  if (!queued.success) {
    const issue = queued.error.issues[0];
    throw new MalformedPayloadError(`the message cannot be queued: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  // And its size on the queue: fields with no limit of their own (file names, URLs) can pass it. The
  // turn message adds only fixed-size fields and ids already bounded, so this is what the queue will see
  // (a pre_gateway_dispatch rewrite, the operator's code, can still change the text).
  const bytes = turnMessageBytes(messageTurn(deliveryId, queued.data, ANY_TIME));
  if (bytes > SQS_MAX_MESSAGE_BYTES) {
    throw new PayloadTooLargeError(
      `the message is ${bytes} bytes as a turn message; the turns queue takes at most ${SQS_MAX_MESSAGE_BYTES} bytes`,
    );
  }
}

/** Every `received_at` has the same length: the size of a turn message does not depend on the time. */
const ANY_TIME = new Date(0);

/** A chat id given in a query (the local outbox) under the same limit as in a message. */
export function checkId(field: string, value: string): void {
  checkBytes(field, value, INPUT_LIMITS.idBytes);
}

function checkText(field: string, value: string): void {
  if (value.length > INPUT_LIMITS.textChars) {
    throw new PayloadTooLargeError(`${field} is ${value.length} characters; the limit is ${INPUT_LIMITS.textChars} characters`);
  }
  wellFormed(field, value);
}

function checkBytes(field: string, value: string, limit: number): void {
  wellFormed(field, value);
  // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
  if (value.length * 3 <= limit) return;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > limit) throw new FieldTooLongError(`${field} is ${bytes} bytes; the limit is ${limit} bytes (UTF-8)`);
}

/** With the `u` flag a surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** False for a string with a lone surrogate, which UTF-8 cannot encode (what `wellFormed` refuses, as a predicate for schemas). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

function wellFormed(field: string, value: string): void {
  const lone = LONE_SURROGATE.exec(value);
  if (!lone) return;
  throw new MalformedPayloadError(
    `${field} is not well-formed Unicode: a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at index ${lone.index}`,
  );
}
