import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryDedupStore } from './delivery-dedup-store.ts';
import type { HandledDeliveryStore } from './handled-delivery-store.ts';
import { epochSeconds, isConditionFailed, wroteItItself, type DynamoTable } from './dynamo-table.ts';

/**
 * Key design — one item per delivery, claimed by the gateway and marked by the turn runtime:
 *   PK = `DEDUP#<key>`, SK = `DEDUP`
 *   claimed_at (ISO-8601), expires_at (epoch seconds; also the table's TTL attribute),
 *   claim_token (a random id per claim), handled_at (ISO-8601, once the delivery's turn ended:
 *   HandledDeliveryStore)
 *
 * A claim is a conditional put that succeeds when no item exists or the stored one has
 * expired (`expires_at <= now`, read from the stored value): TTL deletion is eventual (and
 * absent on dynalite), so correctness never waits for it. The SDK sends a put again when its
 * answer is lost (a reset connection, a 5xx): that retry fails the condition on the item its own
 * first attempt stored, and the delivery would be dropped as a duplicate though nobody took it.
 * So a claim carries a random token, and one whose condition fails keeps the claim when the stored
 * token is its own (`wroteItItself`).
 *
 * @example
 * const dedup = new DynamoDeliveryDedupStore(table);
 * if (await dedup.claim(`telegram:${updateId}`, 86_400)) { … enqueue … }
 */
export class DynamoDeliveryDedupStore implements DeliveryDedupStore, HandledDeliveryStore {
  constructor(private readonly table: DynamoTable) {}

  async claim(key: string, ttlSeconds: number, now: Date = new Date()): Promise<boolean> {
    const nowSeconds = epochSeconds(now);
    const token = randomUUID();
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            PK: `DEDUP#${key}`,
            SK: 'DEDUP',
            claimed_at: now.toISOString(),
            expires_at: nowSeconds + Math.max(1, Math.ceil(ttlSeconds)),
            claim_token: token,
          },
          ConditionExpression: 'attribute_not_exists(PK) OR expires_at <= :now',
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return wroteItItself(this.table, { PK: `DEDUP#${key}`, SK: 'DEDUP' }, 'claim_token', token, error);
    }
  }

  async release(key: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.tableName, Key: { PK: `DEDUP#${key}`, SK: 'DEDUP' } }));
  }

  async claimedAt(key: string): Promise<Date | undefined> {
    const Item = await this.item(key);
    const at = typeof Item?.claimed_at === 'string' ? new Date(Item.claimed_at) : undefined;
    return at && !Number.isNaN(at.getTime()) ? at : undefined;
  }

  async wasHandled(key: string, now: Date = new Date()): Promise<boolean> {
    const Item = await this.item(key);
    return typeof Item?.handled_at === 'string' && Number(Item.expires_at) > epochSeconds(now);
  }

  /**
   * Marks the claim's item (or creates one, for a delivery the gateway did not claim). Its expiry
   * becomes `now + ttlSeconds`: the turn runtime's is longer than the gateway's claim, so the
   * claim's window only grows.
   */
  async markHandled(key: string, ttlSeconds: number, now: Date = new Date()): Promise<void> {
    const expires = epochSeconds(now) + Math.max(1, Math.ceil(ttlSeconds));
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: { PK: `DEDUP#${key}`, SK: 'DEDUP' },
        UpdateExpression: 'SET handled_at = :at, expires_at = :expires',
        ExpressionAttributeValues: { ':at': now.toISOString(), ':expires': expires },
      }),
    );
  }

  /** The delivery's item, read strongly (a claim or a handled mark made a moment ago counts). */
  private async item(key: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.tableName, Key: { PK: `DEDUP#${key}`, SK: 'DEDUP' }, ConsistentRead: true }),
    );
    return Item;
  }
}
