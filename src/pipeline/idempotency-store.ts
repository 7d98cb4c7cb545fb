import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayerOptions } from '@aws-lambda-powertools/idempotency/types';
import { HookgateError } from '../errors/hookgate-error.ts';
import { TABLE } from './topology.ts';

/** A store bound to one key prefix was handed another: each idempotent operation needs a store of its own. */
export class IdempotencyPrefixError extends HookgateError {
  override readonly name = 'IdempotencyPrefixError';
}

/**
 * Powertools idempotency records on the single table: Powertools' own
 * `DynamoDBPersistenceLayer` — its lock condition, its reads, its completion update, every
 * attribute it writes (status, expiry, in-progress expiry, data and, when payload validation
 * is on, the validation hash) — with one change, the key.
 *
 * Key design — one item per envelope id:
 *   PK = `IDEMPOTENCY#observer#<base64 MD5 of the envelope id as JSON>` (Powertools' hashed key, with our
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
 * One store, one key prefix, one idempotent operation. Powertools keeps the prefix on the
 * persistence layer and sets it again at every call (`configure`), so a layer shared by two
 * operations would write one's completion under the other's key when their calls interleave.
 * The store is given its prefix when it is made, and refuses another.
 *
 * @example
 * const store = new SingleTableIdempotencyStore({ tableName, client: new DynamoDBClient({}) }, SingleTableIdempotencyStore.KEY_PREFIX);
 * const runOnce = makeIdempotent(fn, { persistenceStore: store });
 */
export class SingleTableIdempotencyStore extends DynamoDBPersistenceLayer {
  /** Prefix for `makeIdempotent({ keyPrefix })`. */
  static readonly KEY_PREFIX = 'IDEMPOTENCY#observer';
  /** The sort key of every idempotency record. */
  static readonly SORT_KEY = 'IDEMPOTENCY';

  constructor(
    options: { tableName: string; client: DynamoDBClient },
    private readonly keyPrefix: string,
  ) {
    super({
      tableName: options.tableName,
      awsSdkV3Client: options.client,
      keyAttr: TABLE.partitionKey,
      expiryAttr: TABLE.ttlAttribute,
    });
  }

  override configure(options: BasePersistenceLayerOptions): void {
    if (options.keyPrefix !== undefined && options.keyPrefix !== this.keyPrefix) {
      throw new IdempotencyPrefixError(
        `this idempotency store keys its records under ${this.keyPrefix}, not ${options.keyPrefix}: give each idempotent operation a store of its own`,
      );
    }
    super.configure({ ...options, keyPrefix: this.keyPrefix });
  }

  protected override getKey(idempotencyKey: string): Record<string, AttributeValue> {
    return { [TABLE.partitionKey]: { S: idempotencyKey }, [TABLE.sortKey]: { S: SingleTableIdempotencyStore.SORT_KEY } };
  }
}
