import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { HookgateError } from '../errors/hookgate-error.ts';

/** One message waiting in a DLQ, as `hookgate dlq list` shows it. */
export interface DeadLetter {
  readonly messageId: string;
  /** The envelope's id, or the turn message's delivery id (a timer's: its message's), when the body is JSON with one. */
  readonly id: string | null;
  readonly type: string | null;
  /** ISO-8601 time it was first sent (to the source queue). */
  readonly sentAt: string | null;
  /** Receives so far, the ones on the source queue included. */
  readonly receiveCount: number;
  readonly body: string;
}

export interface DeadLetterQueueOptions {
  sqs: SQSClient;
  dlqUrl: string;
  /** Where `replay` sends messages back to (the source queue). */
  sourceQueueUrl?: string;
  /** How long `list`/`replay` hide a message while they walk the queue (s). Default 30. */
  holdSeconds?: number;
}

export class DeadLetterReplayError extends HookgateError {
  override readonly name = 'DeadLetterReplayError';
}

/**
 * The `hookgate dlq` operations on one dead-letter queue. SQS has no peek, so `list`
 * receives every message with a short hold and then makes them visible again at once;
 * `replay` sends a message back to its source queue first and only then deletes it from
 * the DLQ (a crash in between duplicates, never loses — consumers are idempotent).
 *
 * @example
 * const dlq = new DeadLetterQueue({ sqs, dlqUrl: aws.eventsDlqUrl, sourceQueueUrl: aws.eventsQueueUrl });
 * for (const letter of await dlq.list()) console.log(letter.id, letter.type);
 * await dlq.replay({ id: 'evt-1' });
 */
export class DeadLetterQueue {
  private readonly holdSeconds: number;

  constructor(private readonly options: DeadLetterQueueOptions) {
    this.holdSeconds = options.holdSeconds ?? 30;
  }

  async list(): Promise<DeadLetter[]> {
    const messages = await this.receiveAll();
    await this.release(messages);
    return messages.map(describe);
  }

  /** Moves the matching messages (by envelope id or SQS message id; all when no id) back. */
  async replay(filter: { id?: string } = {}): Promise<DeadLetter[]> {
    const target = this.options.sourceQueueUrl;
    if (!target)
      throw new DeadLetterReplayError('replay needs the source queue URL (--target-url, --stack or a running hookgate dev)');
    const fifo = target.endsWith('.fifo');
    const messages = await this.receiveAll();
    const chosen = messages.filter((m) => filter.id === undefined || m.MessageId === filter.id || describe(m).id === filter.id);
    await this.release(messages.filter((m) => !chosen.includes(m)));
    const replayed: DeadLetter[] = [];
    for (const message of chosen) {
      const attributes = message.Attributes ?? {};
      await this.options.sqs.send(
        new SendMessageCommand({
          QueueUrl: target,
          MessageBody: message.Body ?? '',
          ...(message.MessageAttributes ? { MessageAttributes: copyAttributes(message.MessageAttributes) } : {}),
          ...(fifo
            ? {
                MessageGroupId: attributes.MessageGroupId ?? 'replay',
                // A fresh dedup id: the original one may still be inside FIFO's 5-minute window.
                MessageDeduplicationId: `${(attributes.MessageDeduplicationId ?? message.MessageId ?? '').slice(0, 100)}:r${Date.now()}`,
              }
            : {}),
        }),
      );
      await this.options.sqs.send(
        new DeleteMessageCommand({ QueueUrl: this.options.dlqUrl, ReceiptHandle: message.ReceiptHandle! }),
      );
      replayed.push(describe(message));
    }
    return replayed;
  }

  /** Deletes every message in the DLQ; resolves with how many there were (approximately). */
  async purge(): Promise<number> {
    const { Attributes } = await this.options.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: this.options.dlqUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    await this.options.sqs.send(new PurgeQueueCommand({ QueueUrl: this.options.dlqUrl }));
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
  }

  private async receiveAll(): Promise<Message[]> {
    const seen = new Map<string, Message>();
    for (;;) {
      const { Messages = [] } = await this.options.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: this.options.dlqUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          VisibilityTimeout: this.holdSeconds,
          MessageSystemAttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }),
      );
      const fresh = Messages.filter((m) => !seen.has(m.MessageId!));
      if (fresh.length === 0) break;
      for (const m of fresh) seen.set(m.MessageId!, m);
    }
    return [...seen.values()];
  }

  private async release(messages: Message[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 10) {
      await this.options.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.options.dlqUrl,
          Entries: messages
            .slice(i, i + 10)
            .map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 })),
        }),
      );
    }
  }
}

function describe(message: Message): DeadLetter {
  let id: string | null = null;
  let type: string | null = null;
  try {
    const body = JSON.parse(message.Body ?? '') as Record<string, unknown>;
    // A timer names its turn message's delivery (`hookgate dlq --queue timers replay --id`).
    const inner = typeof body.message === 'object' && body.message !== null ? (body.message as Record<string, unknown>) : {};
    const delivery = body.delivery_id ?? inner.delivery_id;
    id = typeof body.id === 'string' ? body.id : typeof delivery === 'string' ? delivery : null;
    type = typeof body.type === 'string' ? body.type : typeof body.kind === 'string' ? body.kind : null;
  } catch {
    // not JSON: a poison message; listed with its SQS id only
  }
  const sent = Number(message.Attributes?.SentTimestamp);
  return {
    messageId: message.MessageId!,
    id,
    type,
    sentAt: Number.isFinite(sent) ? new Date(sent).toISOString() : null,
    receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 0),
    body: message.Body ?? '',
  };
}

function copyAttributes(attributes: Record<string, MessageAttributeValue>): Record<string, MessageAttributeValue> {
  const out: Record<string, MessageAttributeValue> = {};
  for (const [name, value] of Object.entries(attributes)) {
    out[name] = {
      DataType: value.DataType,
      ...(value.StringValue !== undefined ? { StringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined ? { BinaryValue: value.BinaryValue } : {}),
    };
  }
  return out;
}
