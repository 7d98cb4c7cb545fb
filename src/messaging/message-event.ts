import * as z from '../validation/zod.ts';
import { AttachmentSchema, MAX_ATTACHMENTS_PER_MESSAGE } from './attachment.ts';

/**
 * Where and how to answer a message. Platform adapters fill `extra` with what their reply
 * API needs (Slack `thread_ts`, Discord interaction token, Teams serviceUrl and ids…).
 */
export const ReplyTargetSchema = z.object({
  platform: z.string(),
  chat_id: z.string(),
  thread_id: z._default(z.string(), ''),
  extra: z._default(z.record(z.string(), z.string()), {}),
});
export type ReplyTarget = z.infer<typeof ReplyTargetSchema>;

export const MessageSourceSchema = z.object({
  platform: z.string(),
  chat_id: z.string(),
  user_id: z.nullable(z.string()),
  user_name: z._default(z.string(), ''),
  /** `dm`, `group`, `forum`, `channel`, or `''`. */
  chat_type: z._default(z.string(), ''),
  thread_id: z._default(z.string(), ''),
});
export type MessageSource = z.infer<typeof MessageSourceSchema>;

/** One normalised inbound message (the `event` kwarg of pre_gateway_dispatch, §1.12). */
export const MessageEventSchema = z.object({
  text: z.string(),
  message_id: z.string(),
  /** System-generated events bypass pre_gateway_dispatch. */
  internal: z._default(z.boolean(), false),
  source: MessageSourceSchema,
  reply: ReplyTargetSchema,
  /** Photos, files, voice notes, videos (docs/attachments.md); absent = none. `text` is the caption. */
  attachments: z.optional(z.array(AttachmentSchema).check(z.maxLength(MAX_ATTACHMENTS_PER_MESSAGE))),
});
export type MessageEvent = z.infer<typeof MessageEventSchema>;

/** `<platform>:<chat_id>[:<thread_id>]` — one conversation, one FIFO group. */
export function sessionKeyOf(source: Pick<MessageSource, 'platform' | 'chat_id' | 'thread_id'>): string {
  return source.thread_id ? `${source.platform}:${source.chat_id}:${source.thread_id}` : `${source.platform}:${source.chat_id}`;
}
