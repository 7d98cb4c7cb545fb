import { ConditionalCheckFailedException, DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The single table every DynamoDB store shares (topology `TABLE`: `PK`/`SK` strings, TTL
 * attribute `expires_at` in epoch seconds). Each store documents its own key patterns
 * beside its code; the prefixes below keep them apart:
 *
 * | PK                              | SK                          | store        |
 * |---------------------------------|-----------------------------|--------------|
 * | `DEDUP#<key>`                   | `DEDUP`                     | dedup        |
 * | `SESSION#<session key>`         | `CURRENT` / `STOP` / `PENDING_APPROVAL` | sessions, approvals |
 * | `TRANSCRIPT#<session id>`       | `META` / `MSG#<seq>#<chunk>`| transcripts  |
 * | `APPROVAL#<approval id>`        | `APPROVAL` / `STATE#<n>`    | approvals    |
 * | `GRANT#always` / `GRANT#session#<session id>` | `PATTERN#<key>` | approvals |
 * | `ALLOWLIST`                     | `SEQ` / `ENTRY#<event,command>` | allowlist |
 * | `IDEMPOTENCY#<function>#<hash>` | `IDEMPOTENCY`               | Powertools idempotency (observer consumer) |
 * | `TRACE#<turn id>` / `TRACE_SESSION#<session id>` | `RUN#…` / `TURN#…` | traces |
 * | `TRACE_RECENT#<YYYY-MM-DD>#<shard 0-7>` / `UNDELIVERED_REPLY` | `TURN#…` / `<at>#<turn id>#…` | traces (console indexes; recent-turns-index.ts, which also reads the unsharded `TRACE_RECENT#<day>` of older tables) |
 * | `OUTBOX#<session id>` / `OUTBOX_PENDING` | `<at>#<seq>#<envelope id>` / `<session id>` | observer outbox (pipeline/observer-outbox.ts) |
 */
export interface DynamoTable {
  readonly doc: DynamoDBDocumentClient;
  readonly tableName: string;
}

/**
 * A document client for the table, with `undefined` values dropped (optional fields) so
 * records can be written as they are.
 *
 * @example
 * const table = createDynamoTable({ tableName: aws.tableName, client: { endpoint: aws.dynamodbEndpoint, region: aws.region } });
 * const dedup = new DynamoDeliveryDedupStore(table);
 */
export function createDynamoTable(options: { tableName: string; client?: DynamoDBClientConfig | DynamoDBClient }): DynamoTable {
  const raw = options.client instanceof DynamoDBClient ? options.client : new DynamoDBClient(options.client ?? {});
  const doc = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
  return { doc, tableName: options.tableName };
}

/** True for the error DynamoDB answers when a condition expression does not hold. */
export function isConditionFailed(error: unknown): boolean {
  return (
    error instanceof ConditionalCheckFailedException ||
    (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException'
  );
}

/**
 * After a conditional write failed (`isConditionFailed(error)`): true when the write that the
 * condition found is this request's own. The SDK sends a request again when its answer is lost (a
 * reset connection, a 5xx), and that retry fails its condition on the item its own first attempt
 * wrote; mistaken for someone else's, a claim would be dropped as a duplicate. Told by a value only
 * this request wrote (`attribute` = `value`: a random token, a fresh id), read back strongly, and only
 * when the SDK made more than one attempt (`$metadata.attempts`): a first attempt that failed found
 * someone else's write, no read needed.
 *
 * @example
 * catch (error) {
 *   if (!isConditionFailed(error)) throw error;
 *   return wroteItItself(table, { PK: `DEDUP#${key}`, SK: 'DEDUP' }, 'claim_token', token, error);
 * }
 */
export async function wroteItItself(
  table: DynamoTable,
  key: { PK: string; SK: string },
  attribute: string,
  value: string,
  error: unknown,
): Promise<boolean> {
  if ((error as { $metadata?: { attempts?: number } } | null)?.$metadata?.attempts === 1) return false;
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.tableName,
      Key: key,
      ConsistentRead: true,
      ProjectionExpression: '#attribute',
      ExpressionAttributeNames: { '#attribute': attribute },
    }),
  );
  return Item?.[attribute] === value;
}

/** Epoch seconds, the unit of the TTL attribute. */
export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * Every item of one partition (optionally only sort keys starting with `skPrefix`, or between
 * `options.skBetween`'s two keys inclusive), in sort key order, following `LastEvaluatedKey`
 * page by page. Strongly consistent.
 *
 * @example
 * const messages = await queryPartition(table, `TRANSCRIPT#${sessionId}`, 'MSG#');
 */
export async function queryPartition(
  table: DynamoTable,
  pk: string,
  skPrefix?: string,
  options: { projection?: string; skBetween?: readonly [string, string] } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const { skBetween } = options;
  const condition = skBetween
    ? { expression: 'PK = :pk AND SK BETWEEN :from AND :to', values: { ':pk': pk, ':from': skBetween[0], ':to': skBetween[1] } }
    : skPrefix === undefined
      ? { expression: 'PK = :pk', values: { ':pk': pk } }
      : { expression: 'PK = :pk AND begins_with(SK, :prefix)', values: { ':pk': pk, ':prefix': skPrefix } };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: condition.expression,
        ExpressionAttributeValues: condition.values,
        ...(options.projection ? { ProjectionExpression: options.projection } : {}),
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
