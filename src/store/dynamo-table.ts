import { ConditionalCheckFailedException, DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

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
 * True when a failed condition may be the request's own doing: the SDK sent it more than once (an
 * answer lost to a reset connection or a 5xx), and an earlier attempt may have written the item the
 * last one found. A conditional write that must not mistake its own success for someone else's reads
 * the item back then (a claim token, a fresh id). False when the first attempt failed: no earlier one
 * of its own can have written anything.
 *
 * @example
 * if (isConditionFailed(error) && mayBeOwnWrite(error)) return (await read())?.token === token;
 */
export function mayBeOwnWrite(error: unknown): boolean {
  return (error as { $metadata?: { attempts?: number } } | null)?.$metadata?.attempts !== 1;
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
