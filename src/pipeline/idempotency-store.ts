import {
  ConditionalCheckFailedException,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { IdempotencyItemAlreadyExistsError, IdempotencyRecordStatus } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { DirectDynamoDB } from './direct-dynamodb.ts';
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
 * one static PK: a hot partition at thousands of events per second).
 *
 * The lock is taken in up to two conditional PutItems, each atomic:
 * 1. claim the key if it is absent (`Expected: { PK: { Exists: false } }`) — the usual case,
 *    a new envelope, is decided here in one request;
 * 2. only if the key exists: Powertools' own condition — key absent, OR record expired, OR
 *    (INPROGRESS AND its in-progress expiry passed) — so an expired or lapsed record is taken
 *    over and a live one is refused.
 * The pair decides as the full condition alone would at the moment of the step that
 * answered. Both are plain conditional single-item writes, which dynalite and DynamoDB Local
 * honour; dynalite does not return the old item on a failed condition, and Powertools then
 * reads it back itself. Step 1 uses the legacy `Expected` form on purpose: it is the exact
 * statement of "absent", and an emulator that parses every ConditionExpression character by
 * character (dynalite's PEG parser) spends ~70-130 µs per request on one, about a third of its
 * cost per lock (figures in docs/data-plane.md §6). Step 2 is Powertools' condition written
 * shorter: no parentheses (AND binds tighter than OR), no
 * `attribute_exists(in_progress_expiration)` (a comparison with a missing attribute is false
 * anyway), one-letter placeholders.
 *
 * The lock's PutItems and the completions' BatchWriteItems go through `DirectDynamoDB`: one
 * signed request each without the SDK's per-request middleware, which was most of the
 * consumer's CPU per event; any answer but success or a failed condition is sent again
 * through the SDK client.
 *
 * Marking records COMPLETED needs no condition (the lock is ours; Powertools' own update is
 * unconditional too), so the completions of records that finish together — a batch's
 * records run in parallel — are coalesced into one BatchWriteItem of whole items instead of
 * one UpdateItem each: about half the table requests per event.
 */
export class SingleTableIdempotencyStore extends DynamoDBPersistenceLayer {
  /** Prefix for `makeIdempotent({ keyPrefix })`. */
  static readonly KEY_PREFIX = 'IDEMPOTENCY#observer';

  /** The lock condition (see above); names and values below. */
  static readonly LOCK_CONDITION = 'attribute_not_exists(#k) OR #e<:n OR #s=:i AND #p<:m';

  private readonly direct: DirectDynamoDB;
  private readonly table: string;
  private pending: { item: Record<string, AttributeValue>; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushScheduled = false;

  constructor(options: { tableName: string; client: DynamoDBClient }) {
    super({
      tableName: options.tableName,
      awsSdkV3Client: options.client,
      keyAttr: TABLE.partitionKey,
      expiryAttr: TABLE.ttlAttribute,
    });
    this.direct = new DirectDynamoDB(options.client);
    this.table = options.tableName;
  }

  protected override async _putRecord(record: IdempotencyRecord): Promise<void> {
    const item: Record<string, AttributeValue> = {
      ...this.getKey(record.idempotencyKey),
      status: { S: record.getStatus() },
    };
    if (record.expiryTimestamp !== undefined) item[TABLE.ttlAttribute] = { N: String(record.expiryTimestamp) };
    if (record.inProgressExpiryTimestamp !== undefined) item[IN_PROGRESS_EXPIRY] = { N: String(record.inProgressExpiryTimestamp) };
    if (this.isPayloadValidationEnabled() && record.payloadHash !== undefined) item.validation = { S: record.payloadHash };
    // Step 1 of the lock (see above): claim the key if it is absent.
    try {
      await this.direct.putItem({ TableName: this.table, Item: item, Expected: { [TABLE.partitionKey]: { Exists: false } } });
      return;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    // Step 2: the key exists; Powertools' condition decides.
    const now = Date.now();
    try {
      await this.direct.putItem({
        TableName: this.table,
        Item: item,
        ConditionExpression: SingleTableIdempotencyStore.LOCK_CONDITION,
        ExpressionAttributeNames: { '#k': TABLE.partitionKey, '#e': TABLE.ttlAttribute, '#s': 'status', '#p': IN_PROGRESS_EXPIRY },
        ExpressionAttributeValues: {
          ':n': { N: String(now / 1000) }, // now, epoch seconds (expires_at)
          ':m': { N: String(now) }, // now, epoch ms (in_progress_expiration)
          ':i': { S: IdempotencyRecordStatus.INPROGRESS },
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // As Powertools: hand over the existing record when the service returned it (dynalite
      // does not; Powertools then reads it back with a GetItem).
      const old = error.Item && unmarshall(error.Item);
      throw new IdempotencyItemAlreadyExistsError(
        `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
        old &&
          new IdempotencyRecord({
            idempotencyKey: old[TABLE.partitionKey],
            status: old.status,
            expiryTimestamp: old[TABLE.ttlAttribute],
            inProgressExpiryTimestamp: old[IN_PROGRESS_EXPIRY],
            responseData: old.data,
            payloadHash: old.validation,
          }),
      );
    }
  }

  protected override async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const item: Record<string, AttributeValue> = {
      ...this.getKey(record.idempotencyKey),
      ...marshall(
        {
          status: record.getStatus(),
          [TABLE.ttlAttribute]: record.expiryTimestamp ?? Math.floor(Date.now() / 1000) + 3600,
          data: record.responseData,
        },
        { removeUndefinedValues: true },
      ),
    };
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
          const unprocessed = await this.direct.batchWriteItem({ RequestItems: { [this.table]: requests } });
          requests = unprocessed?.[this.table] ?? [];
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

/** Powertools' default name for the in-progress lock's expiry (epoch ms). */
const IN_PROGRESS_EXPIRY = 'in_progress_expiration';
