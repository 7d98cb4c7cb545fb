import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
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
 */
export class SingleTableIdempotencyStore extends DynamoDBPersistenceLayer {
  /** Prefix for `makeIdempotent({ keyPrefix })`. */
  static readonly KEY_PREFIX = 'IDEMPOTENCY#observer';

  constructor(options: { tableName: string; client: DynamoDBClient }) {
    super({
      tableName: options.tableName,
      awsSdkV3Client: options.client,
      keyAttr: TABLE.partitionKey,
      expiryAttr: TABLE.ttlAttribute,
    });
  }

  protected override getKey(idempotencyKey: string): Record<string, AttributeValue> {
    return { [TABLE.partitionKey]: { S: idempotencyKey }, [TABLE.sortKey]: { S: 'IDEMPOTENCY' } };
  }
}
