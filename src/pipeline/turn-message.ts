import * as z from '../validation/zod.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { MessageEventSchema, sessionKeyOf, type MessageEvent } from '../messaging/message-event.ts';

/**
 * The body of one message on the FIFO turns queue (group = session key, dedup id =
 * delivery id). The gateway writes it; the turn λ reads it.
 */
export const TurnMessageSchema = z.discriminatedUnion('kind', [
  /** A user message that starts a turn. */
  z.object({
    v: z.literal(1),
    kind: z.literal('message'),
    delivery_id: z.string(),
    session_key: z.string(),
    received_at: z.string(),
    event: MessageEventSchema,
  }),
  /** The answer to a pending approval (/approve, /deny) or its timeout: resumes a suspended turn. */
  z.object({
    v: z.literal(1),
    kind: z.literal('approval'),
    delivery_id: z.string(),
    session_key: z.string(),
    received_at: z.string(),
    approval_id: z.string(),
    choice: z.enum(['once', 'session', 'always', 'deny', 'timeout']),
    /** `<platform>:<user id>` of whoever answered (absent for a timeout). */
    answered_by: z.optional(z.string()),
    /** An approver's `/approve always global`: the grant covers every chat. */
    global: z.optional(z.boolean()),
  }),
]);
export type TurnMessage = z.infer<typeof TurnMessageSchema>;

/**
 * The turn message of one chat message, as the gateway queues it (its session key from the
 * event's source). The door sizes it with this too, so both see the same message.
 *
 * @example
 * await turns.send(messageTurn('telegram:42', event, new Date()));
 */
export function messageTurn(
  deliveryId: string,
  event: MessageEvent,
  receivedAt: Date,
): Extract<TurnMessage, { kind: 'message' }> {
  return {
    v: 1,
    kind: 'message',
    delivery_id: deliveryId,
    session_key: sessionKeyOf(event.source),
    received_at: receivedAt.toISOString(),
    event,
  };
}

/**
 * A turns-queue body the turn λ cannot read (not JSON, or no turn or timer message it knows).
 * Only hookgate's gateway writes that queue, so it is a deploy in progress (a newer gateway's
 * message reaching an older turn function) or a bug: it is left to SQS, retried, and kept in the
 * turns DLQ for `hookgate dlq`, never dropped.
 */
export class UnreadableTurnMessageError extends HookgateError {
  override readonly name = 'UnreadableTurnMessageError';
}
