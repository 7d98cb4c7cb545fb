import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { TurnMessageSchema, type TurnMessage } from './turn-message.ts';
import { fifoId } from './sqs-message-ids.ts';
import { asciiJson } from './ascii-json.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { errorText } from '../errors/error-text.ts';

/** SQS: 256 KiB per message (body and attributes; the turn message has no attributes). */
export const SQS_MAX_MESSAGE_BYTES = 262_144;

/** A turn message could not be enqueued; the gateway answers 5xx so the platform retries. */
export class TurnEnqueueError extends HookgateError {
  override readonly name: string = 'TurnEnqueueError';
}

/**
 * The turn message does not fit in one SQS message (its body, escaped to ASCII, is over
 * 256 KiB): a permanent refusal, which the gateway answers with 413 before acknowledging.
 */
export class TurnMessageTooLargeError extends TurnEnqueueError {
  override readonly name = 'TurnMessageTooLargeError';
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the turn message is ${bytes} bytes on the queue; the limit is ${limit} bytes`);
  }
}

/**
 * The bytes a turn message takes on the queue: its body as {@link SqsTurnQueue} sends it (ASCII-only JSON).
 * The gateway measures a delivery with it at the door, before anything is claimed or queued.
 *
 * @example
 * turnMessageBytes(message) > SQS_MAX_MESSAGE_BYTES // refused with 413
 */
export function turnMessageBytes(message: TurnMessage): number {
  return Buffer.byteLength(asciiJson(message), 'utf8');
}

export interface TurnQueue {
  /** Resolves once the message is durably on the turns queue. */
  send(message: TurnMessage): Promise<void>;
}

/**
 * Sends `TurnMessage`s to the FIFO turns queue: group = session key (one turn at a time per
 * conversation, in order), dedup id = delivery id (SQS drops a platform's retry within 5
 * minutes). The message is validated before it goes out; its body is ASCII-only JSON
 * (`asciiJson`), so any text travels, and one over the SQS limit is refused with
 * `TurnMessageTooLargeError` before anything is sent.
 *
 * @example
 * const turns = new SqsTurnQueue(sqs, aws.turnsQueueUrl);
 * await turns.send({ v: 1, kind: 'message', delivery_id, session_key, received_at, event });
 */
export class SqsTurnQueue implements TurnQueue {
  constructor(
    private readonly sqs: SQSClient,
    readonly queueUrl: string,
  ) {}

  async send(message: TurnMessage): Promise<void> {
    const parsed = TurnMessageSchema.safeParse(message);
    if (!parsed.success) {
      throw new TurnEnqueueError(
        `not a valid turn message: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      );
    }
    const body = asciiJson(parsed.data);
    const bytes = Buffer.byteLength(body, 'utf8');
    if (bytes > SQS_MAX_MESSAGE_BYTES) throw new TurnMessageTooLargeError(bytes, SQS_MAX_MESSAGE_BYTES);
    try {
      await this.sqs.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: body,
          MessageGroupId: fifoId(parsed.data.session_key),
          MessageDeduplicationId: fifoId(parsed.data.delivery_id),
        }),
      );
    } catch (error) {
      throw new TurnEnqueueError(`could not enqueue turn ${parsed.data.delivery_id}: ${errorText(error)}`, { cause: error });
    }
  }
}
