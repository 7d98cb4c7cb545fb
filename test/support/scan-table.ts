import { gunzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningEmulators } from '../../src/local/emulators.ts';

/**
 * Every item of the emulators' table, with each gzipped binary attribute (the trace store's
 * `records_gz`) replaced by its content, so that a test searching what is stored sees inside
 * compressed attributes too: a secret gzipped into a trace is still a secret stored.
 *
 * @example
 * const stored = JSON.stringify(await scanTable(dev.aws));
 * expect(stored).not.toContain(secret);
 */
export async function scanTable(aws: Pick<RunningEmulators, 'dynamodbEndpoint' | 'region' | 'credentials' | 'tableName'>) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials }),
  );
  const items: Record<string, unknown>[] = [];
  try {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: aws.tableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return items.map((item) =>
    Object.fromEntries(
      Object.entries(item).map(([name, value]) => [name, value instanceof Uint8Array ? gunzipped(value) : value]),
    ),
  );
}

/**
 * A gzip stream's content, parsed when it is JSON (so that a search of the stringified items sees
 * its strings escaped once, as in any other attribute); any other bytes as base64.
 */
function gunzipped(bytes: Uint8Array): unknown {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return Buffer.from(bytes).toString('base64');
  const text = gunzipSync(bytes).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
