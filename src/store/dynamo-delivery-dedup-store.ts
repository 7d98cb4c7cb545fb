import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryDedupStore } from './delivery-dedup-store.ts';
import { epochSeconds, isConditionFailed, type DynamoTable } from './dynamo-table.ts';

/**
 * Key design — one item per claimed key:
 *   PK = `DEDUP#<key>`, SK = `DEDUP`
 *   claimed_at (ISO-8601), expires_at (epoch seconds; also the table's TTL attribute)
 *
 * A claim is a conditional put that succeeds when no item exists or the stored one has
 * expired (`expires_at <= now`, read from the stored value): TTL deletion is eventual (and
 * absent on dynalite), so correctness never waits for it.
 *
 * @example
 * const dedup = new DynamoDeliveryDedupStore(table);
 * if (await dedup.claim(`telegram:${updateId}`, 86_400)) { … enqueue … }
 */
export class DynamoDeliveryDedupStore implements DeliveryDedupStore {
  constructor(private readonly table: DynamoTable) {}

  async claim(key: string, ttlSeconds: number, now: Date = new Date()): Promise<boolean> {
    const nowSeconds = epochSeconds(now);
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            PK: `DEDUP#${key}`,
            SK: 'DEDUP',
            claimed_at: now.toISOString(),
            expires_at: nowSeconds + Math.max(1, Math.ceil(ttlSeconds)),
          },
          ConditionExpression: 'attribute_not_exists(PK) OR expires_at <= :now',
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  async release(key: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.tableName, Key: { PK: `DEDUP#${key}`, SK: 'DEDUP' } }),
    );
  }
}
