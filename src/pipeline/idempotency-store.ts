import { BatchWriteItemCommand, type AttributeValue, type DynamoDBClient, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { TABLE } from './topology.ts';

/**
 * Powertools idempotency records on the single table.
 *
 * Key design — one item per envelope id:
 *   PK = `IDEMPOTENCY#observer#<md5 of the envelope id>` (Powertools' hashed key, with our
 *   prefix), SK = `IDEMPOTENCY`; status (INPROGRESS | COMPLETED), expires_at (epoch seconds:
 *   the table's TTL attribute, checked by Powertools itself so TTL deletion is not relied
 *   on), in_progress_expiration (epoch ms: a crashed run's lock lapses with its time budget),
 *   data (the stored result).
 * Each key is its own partition (Powertools' `sortKeyAttr` mode would put every record under
 * one static PK: a hot partition at thousands of events per second). The lock is a
 * conditional PutItem, which dynalite and DynamoDB Local both honour; dynalite does not
 * return the old item on a failed condition, and Powertools then reads it back itself.
 *
 * Marking records COMPLETED needs no condition (the lock is ours; Powertools' own update is
 * unconditional too), so the completions of records that finish together — a batch's
 * records run in parallel — are coalesced into one BatchWriteItem of whole items instead of
 * one UpdateItem each: about half the table requests per event.
 */
export class SingleTableIdempotencyStore extends DynamoDBPersistenceLayer {
  /** Prefix for `makeIdempotent({ keyPrefix })`. */
  static readonly KEY_PREFIX = 'IDEMPOTENCY#observer';

  private readonly batchClient: DynamoDBClient;
  private readonly batchTable: string;
  private pending: { item: Record<string, AttributeValue>; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushScheduled = false;

  constructor(options: { tableName: string; client: DynamoDBClient }) {
    super({
      tableName: options.tableName,
      awsSdkV3Client: options.client,
      keyAttr: TABLE.partitionKey,
      expiryAttr: TABLE.ttlAttribute,
    });
    this.batchClient = options.client;
    this.batchTable = options.tableName;
  }

  protected override async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const item: Record<string, AttributeValue> = {
      ...this.getKey(record.idempotencyKey),
      status: { S: record.getStatus() },
      [TABLE.ttlAttribute]: { N: String(record.expiryTimestamp ?? Math.floor(Date.now() / 1000) + 3600) },
    };
    if (record.responseData !== undefined) item.data = toAttributeValue(record.responseData);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += 25) {
      const chunk = all.slice(i, i + 25);
      try {
        let requests: WriteRequest[] = chunk.map(({ item }) => ({ PutRequest: { Item: item } }));
        for (let attempt = 0; requests.length > 0; attempt++) {
          if (attempt > 6) throw new Error(`${requests.length} idempotency record(s) still unprocessed after retries`);
          if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
          const { UnprocessedItems } = await this.batchClient.send(
            new BatchWriteItemCommand({ RequestItems: { [this.batchTable]: requests } }),
          );
          requests = UnprocessedItems?.[this.batchTable] ?? [];
        }
        for (const { resolve } of chunk) resolve();
      } catch (error) {
        for (const { reject } of chunk) reject(error);
      }
    }
  }

  protected override getKey(idempotencyKey: string): Record<string, AttributeValue> {
    return { [TABLE.partitionKey]: { S: idempotencyKey }, [TABLE.sortKey]: { S: 'IDEMPOTENCY' } };
  }
}

/** A JSON value as a DynamoDB attribute value (what Powertools' `marshall` writes for `data`). */
function toAttributeValue(value: unknown): AttributeValue {
  if (value === null || value === undefined) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map(toAttributeValue) };
  return { M: Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toAttributeValue(v)])) };
}
