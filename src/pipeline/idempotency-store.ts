import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { TABLE } from './topology.ts';

/**
 * Powertools idempotency records on the single table: Powertools' own
 * `DynamoDBPersistenceLayer` — its lock condition, its reads, its completion update, every
 * attribute it writes (status, expiry, in-progress expiry, data and, when payload validation
 * is on, the validation hash) — with one change, the key.
 *
 * Key design — one item per envelope id:
 *   PK = `IDEMPOTENCY#observer#<md5 of the envelope id>` (Powertools' hashed key, with our
 *   prefix), SK = `IDEMPOTENCY`; then Powertools' attributes: status (INPROGRESS |
 *   COMPLETED), expires_at (epoch seconds: the table's TTL attribute, checked by Powertools
 *   itself so TTL deletion is not relied on), in_progress_expiration (epoch ms: a crashed
 *   run's lock lapses with its time budget), data (the stored result), validation.
 * The table's key is (PK, SK), so every request needs both. Powertools' composite-key mode
 * (`sortKeyAttr`) would put the idempotency key in SK under one static PK — every record in
 * one partition, a hot partition at thousands of events per second — so `getKey` is
 * overridden to put the key in PK and a constant in SK. Powertools builds every request's
 * `Key` (and the lock's `Item`) from `getKey`, and reads the key back from `keyAttr` (PK).
 *
 * @example
 * const store = new SingleTableIdempotencyStore({ tableName, client: new DynamoDBClient({}) });
 * const runOnce = makeIdempotent(fn, { persistenceStore: store, keyPrefix: SingleTableIdempotencyStore.KEY_PREFIX });
 */
export class SingleTableIdempotencyStore extends DynamoDBPersistenceLayer {
  /** Prefix for `makeIdempotent({ keyPrefix })`. */
  static readonly KEY_PREFIX = 'IDEMPOTENCY#observer';
  /** The sort key of every idempotency record. */
  static readonly SORT_KEY = 'IDEMPOTENCY';

  constructor(options: { tableName: string; client: DynamoDBClient }) {
    super({
      tableName: options.tableName,
      awsSdkV3Client: options.client,
      keyAttr: TABLE.partitionKey,
      expiryAttr: TABLE.ttlAttribute,
    });
  }

  protected override getKey(idempotencyKey: string): Record<string, AttributeValue> {
    return { [TABLE.partitionKey]: { S: idempotencyKey }, [TABLE.sortKey]: { S: SingleTableIdempotencyStore.SORT_KEY } };
  }
}
