import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { TurnSender } from '../gateway/gateway-deps.ts';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Replier } from '../messaging/replier.ts';
import { TurnMessageSchema, type TurnMessage } from '../pipeline/turn-message.ts';
import { isConditionFailed, queryPartition, type DynamoTable } from '../store/dynamo-table.ts';
import type { SqsEventHandler } from './sqs-poller.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * `hookgate dev`'s queues live in memory (fauxqs 1.x has no persistence on Node 20), so a
 * turn message acknowledged with a 202 would vanish with a `kill -9`. The journal writes
 * each turn message to the (persisted) table before it goes on the queue, deletes it once
 * the turn consumer has handled it, and re-sends whatever is left when dev starts again.
 *
 * Key design: PK = `DEV_TURN_JOURNAL`, SK = `<delivery id>`: body (the turn message JSON),
 * received_at, and `interrupted`: how many times the turn consumer took it and never came back
 * (the process died while handling it).
 * Dev-only: the deployed gateway sends straight to SQS, which is durable.
 *
 * Delivery is at least once, as with SQS in AWS: a crash after the reply was sent but
 * before the journal entry was deleted answers that turn again after the restart.
 *
 * A turn that kills (or crashes) the server would kill it again at every restart: `interrupted`
 * goes up as the consumer takes the message and back down when the consumer returns (done,
 * failed or thrown) or dev stops in good order; what is left counts the deaths. At
 * `MAX_INTERRUPTIONS` the next start answers the chat with an error (`CRASH_LOOP_REPLY`) and
 * drops the message instead of re-sending it.
 *
 * @example
 * const journal = new DevTurnJournal(plane.table, plane.turnQueue);
 * deps.turnQueue = journal;
 * const handler = journal.settling(turnHandler);
 * await journal.dropRepeatedCrashes(replier); // at startup, then
 * await journal.redrive();
 */
export class DevTurnJournal implements TurnSender {
  static readonly PARTITION = 'DEV_TURN_JOURNAL';
  /** Server deaths while handling one message after which it is dropped, not re-sent. */
  static readonly MAX_INTERRUPTIONS = 2;
  /** What the chat is told about a dropped message. */
  static readonly CRASH_LOOP_REPLY =
    '⚠️ Your message was dropped: answering it stopped the server twice (the process was killed or crashed while it ran). Nothing more will run for it; send it again if you meant to.';

  /** Delivery ids being handled now, whose `interrupted` count this process must take back. */
  private readonly inHand = new Set<string>();

  constructor(
    private readonly table: DynamoTable,
    private readonly queue: TurnSender,
  ) {}

  async send(message: TurnMessage): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          PK: DevTurnJournal.PARTITION,
          SK: message.delivery_id,
          received_at: message.received_at,
          body: JSON.stringify(message),
        },
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
    return (await this.entries()).map((entry) => entry.message);
  }

  /**
   * Answers and forgets every message that was being handled when the server died
   * `MAX_INTERRUPTIONS` times: the chat gets `CRASH_LOOP_REPLY` (an approval's answer has no
   * chat to answer, and is only dropped). Run before `redrive`. A reply that cannot be sent
   * does not keep the message. Returns the dropped messages.
   */
  async dropRepeatedCrashes(
    replier: Replier,
    onReplyError: (message: TurnMessage, error: unknown) => void = () => {},
  ): Promise<TurnMessage[]> {
    const dropped: TurnMessage[] = [];
    for (const { message, interrupted } of await this.entries()) {
      if (interrupted < DevTurnJournal.MAX_INTERRUPTIONS) continue;
      if (message.kind === 'message')
        await replier
          .send(message.event.reply, DevTurnJournal.CRASH_LOOP_REPLY)
          .catch((error: unknown) => onReplyError(message, error));
      await this.forget(message.delivery_id);
      dropped.push(message);
    }
    return dropped;
  }

  /**
   * At dev's start: `dropRepeatedCrashes` (each dropped turn logged, a reply that cannot be
   * sent logged), then `redrive`. Returns how many turns were dropped and re-queued.
   *
   * @example
   * const { dropped, redriven } = await journal.resume(deps.replier, logger);
   */
  async resume(replier: Replier, logger: Pick<Logger, 'warn'>): Promise<{ dropped: number; redriven: number }> {
    const dropped = await this.dropRepeatedCrashes(replier, (message, error) =>
      logger.warn('the error reply for a dropped turn could not be sent', {
        delivery_id: message.delivery_id,
        error: errorText(error),
      }),
    );
    for (const message of dropped) {
      logger.warn('turn dropped: it stopped the server twice while it ran', {
        delivery_id: message.delivery_id,
        session_key: message.session_key,
      });
    }
    return { dropped: dropped.length, redriven: await this.redrive() };
  }

  /** Puts every pending turn message back on the queue; returns how many. */
  async redrive(): Promise<number> {
    const messages = await this.pending();
    for (const message of messages) await this.queue.send(message);
    return messages.length;
  }

  /**
   * Wraps the turns queue's consumer: the records it handled leave the journal; each record
   * counts as interrupted while the consumer has it, so a death in between is remembered.
   */
  settling(handler: SqsEventHandler): SqsEventHandler {
    return async (event: SQSEvent) => {
      const ids = event.Records.map((record) => ({ record, id: deliveryIdOf(record.body) }));
      for (const { id } of ids) if (id !== undefined) await this.countInterruption(id, 1);
      let response: SQSBatchResponse | void;
      try {
        response = await handler(event);
      } catch (error) {
        for (const { id } of ids) if (id !== undefined) await this.countInterruption(id, -1);
        throw error;
      }
      const failed = new Set((response as SQSBatchResponse | undefined)?.batchItemFailures?.map((f) => f.itemIdentifier) ?? []);
      for (const { record, id } of ids) {
        if (id === undefined) continue;
        if (failed.has(record.messageId)) await this.countInterruption(id, -1);
        else {
          this.inHand.delete(id);
          await this.forget(id);
        }
      }
      return response;
    };
  }

  /**
   * Dev stops in good order with turns still in hand (a hook outlived the shutdown budget):
   * those were not deaths of the server; their count is taken back, and they are re-sent at
   * the next start as before.
   */
  async release(): Promise<void> {
    for (const id of [...this.inHand]) await this.countInterruption(id, -1);
  }

  private async countInterruption(deliveryId: string, by: 1 | -1): Promise<void> {
    if (by === 1) this.inHand.add(deliveryId);
    else if (!this.inHand.delete(deliveryId)) return; // already taken back (release, then a late return)
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { PK: DevTurnJournal.PARTITION, SK: deliveryId },
          UpdateExpression: 'ADD interrupted :by',
          // Only journaled messages (a timer's is not); never re-create a forgotten one.
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':by': by },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  /** Every journal entry, oldest first (an unreadable one is forgotten). */
  private async entries(): Promise<{ message: TurnMessage; interrupted: number }[]> {
    const items = await queryPartition(this.table, DevTurnJournal.PARTITION);
    const entries: { message: TurnMessage; interrupted: number }[] = [];
    for (const item of items) {
      const parsed = TurnMessageSchema.safeParse(safeJson(String(item.body)));
      if (parsed.success) entries.push({ message: parsed.data, interrupted: Number(item.interrupted ?? 0) || 0 });
      else await this.forget(String(item.SK)); // never valid, would never be handled
    }
    return entries.sort((a, b) => a.message.received_at.localeCompare(b.message.received_at));
  }

  private async forget(deliveryId: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.tableName, Key: { PK: DevTurnJournal.PARTITION, SK: deliveryId } }),
    );
  }
}

function deliveryIdOf(body: string): string | undefined {
  const id = (safeJson(body) as { delivery_id?: unknown } | undefined)?.delivery_id;
  return typeof id === 'string' ? id : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
