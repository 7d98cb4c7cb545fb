import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { TurnSender } from '../gateway/gateway-deps.ts';
import { TurnMessageSchema, type TurnMessage } from '../pipeline/turn-message.ts';
import { queryPartition, type DynamoTable } from '../store/dynamo-table.ts';
import type { SqsEventHandler } from './sqs-poller.ts';

/**
 * `hookgate dev`'s queues live in memory (fauxqs 1.x has no persistence on Node 20), so a
 * turn message acknowledged with a 202 would vanish with a `kill -9`. The journal writes
 * each turn message to the (persisted) table before it goes on the queue, deletes it once
 * the turn consumer has handled it, and re-sends whatever is left when dev starts again.
 *
 * Key design: PK = `DEV_TURN_JOURNAL`, SK = `<delivery id>`: body (the turn message JSON).
 * Dev-only: the deployed gateway sends straight to SQS, which is durable.
 *
 * Delivery is at least once, as with SQS in AWS: a crash after the reply was sent but
 * before the journal entry was deleted answers that turn again after the restart.
 *
 * @example
 * const journal = new DevTurnJournal(plane.table, plane.turnQueue);
 * deps.turnQueue = journal;
 * const handler = journal.settling(turnHandler);
 * await journal.redrive(); // at startup
 */
export class DevTurnJournal implements TurnSender {
  static readonly PARTITION = 'DEV_TURN_JOURNAL';

  constructor(
    private readonly table: DynamoTable,
    private readonly queue: TurnSender,
  ) {}

  async send(message: TurnMessage): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: { PK: DevTurnJournal.PARTITION, SK: message.delivery_id, received_at: message.received_at, body: JSON.stringify(message) },
      }),
    );
    try {
      await this.queue.send(message);
    } catch (error) {
      // Not queued: the gateway answers 5xx and the platform delivers again (journaled again
      // then). Left here, the entry would answer a refused message at the next start.
      await this.forget(message.delivery_id).catch(() => {});
      throw error;
    }
  }

  /** Turn messages acknowledged but not yet handled, oldest first. */
  async pending(): Promise<TurnMessage[]> {
    const items = await queryPartition(this.table, DevTurnJournal.PARTITION);
    const messages: TurnMessage[] = [];
    for (const item of items) {
      const parsed = TurnMessageSchema.safeParse(safeJson(String(item.body)));
      if (parsed.success) messages.push(parsed.data);
      else await this.forget(String(item.SK)); // never valid, would never be handled
    }
    return messages.sort((a, b) => a.received_at.localeCompare(b.received_at));
  }

  /** Puts every pending turn message back on the queue; returns how many. */
  async redrive(): Promise<number> {
    const messages = await this.pending();
    for (const message of messages) await this.queue.send(message);
    return messages.length;
  }

  /** Wraps the turns queue's consumer: the records it handled leave the journal. */
  settling(handler: SqsEventHandler): SqsEventHandler {
    return async (event: SQSEvent) => {
      const response = await handler(event);
      const failed = new Set((response as SQSBatchResponse | undefined)?.batchItemFailures?.map((f) => f.itemIdentifier) ?? []);
      for (const record of event.Records) {
        if (failed.has(record.messageId)) continue;
        const id = (safeJson(record.body) as { delivery_id?: unknown } | undefined)?.delivery_id;
        if (typeof id === 'string') await this.forget(id);
      }
      return response;
    };
  }

  private async forget(deliveryId: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.tableName, Key: { PK: DevTurnJournal.PARTITION, SK: deliveryId } }));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
