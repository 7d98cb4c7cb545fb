import type { RunningEmulators } from '../../src/local/emulators.ts';
import { createDynamoTable, type DynamoTable } from '../../src/store/dynamo-table.ts';

/**
 * The emulators' table through a client of its own whose first `operation` (e.g. `PutItem`) is
 * carried out but its answer lost, as a reset connection loses it: the SDK's retry strategy then
 * sends the request again, and that retry finds what the first attempt wrote. `lost()` says how
 * many answers were dropped (one at most). Destroy `table.doc` when done.
 *
 * @example
 * const { table, lost } = lossyTable(aws(), 'PutItem');
 * expect(await new DynamoDeliveryDedupStore(table).claim('telegram:1', 600)).toBe(true);
 * expect(lost()).toBe(1);
 */
export function lossyTable(aws: RunningEmulators, operation: string): { table: DynamoTable; lost: () => number } {
  const table = createDynamoTable({
    tableName: aws.tableName,
    client: { endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials },
  });
  let lost = 0;
  table.doc.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const target = (args.request as { headers: Record<string, string> }).headers['x-amz-target'];
      if (lost === 0 && target === `DynamoDB_20120810.${operation}`) {
        lost++;
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      return out;
    },
    // Innermost (below the retry middleware): the request has been answered, the answer is dropped.
    { step: 'deserialize', priority: 'low', name: 'loseFirstAnswer' },
  );
  return { table, lost: () => lost };
}
