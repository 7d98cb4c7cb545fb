import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { TurnMessageSchema, type TurnMessage } from './turn-message.ts';
import { fifoId } from './sqs-message-ids.ts';

/** A turn message could not be enqueued; the gateway answers 5xx so the platform retries. */
export class TurnEnqueueError extends Error {
  override readonly name = 'TurnEnqueueError';
}

export interface TurnQueue {
  /** Resolves once the message is durably on the turns queue. */
  send(message: TurnMessage): Promise<void>;
}

/**
 * Sends `TurnMessage`s to the FIFO turns queue: group = session key (one turn at a time per
 * conversation, in order), dedup id = delivery id (SQS drops a platform's retry within 5
 * minutes). The message is validated before it goes out.
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
      throw new TurnEnqueueError(`not a valid turn message: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
    }
    try {
      await this.sqs.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: JSON.stringify(parsed.data),
          MessageGroupId: fifoId(parsed.data.session_key),
          MessageDeduplicationId: fifoId(parsed.data.delivery_id),
        }),
      );
    } catch (error) {
      throw new TurnEnqueueError(`could not enqueue turn ${parsed.data.delivery_id}: ${(error as Error).message}`, { cause: error });
    }
  }
}
