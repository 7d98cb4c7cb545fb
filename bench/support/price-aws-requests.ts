import { PRICES } from '../cost.ts';
import type { OperationCount } from './aws-request-counter.ts';

/**
 * What counted AWS requests cost at `PRICES` (bench/cost.ts), in dollars: DynamoDB by its
 * read and write units, SNS by its billed 64 KiB chunks, SQS per request at the FIFO price
 * (the turns queue's; the events queue is cheaper, so this is an upper bound), S3 per request.
 * Keys are `<service> <Operation>`, as `RequestsByTurn.buckets()` gives them.
 *
 * @example
 * priceAwsRequests({ 'dynamodb PutItem': { requests: 1, writeUnits: 1, readUnits: 0, billedChunks: 0, empty: 0, failedConditions: 0 } });
 * // 0.000000625
 */
export function priceAwsRequests(counts: Record<string, OperationCount>): number {
  let dollars = 0;
  for (const [key, c] of Object.entries(counts)) {
    const [service, operation] = key.split(' ') as [string, string];
    if (service === 'dynamodb') dollars += c.writeUnits * PRICES.dynamoWriteUnit + c.readUnits * PRICES.dynamoReadUnit;
    if (service === 'sns') dollars += c.billedChunks * PRICES.snsPublishChunk;
    if (service === 'sqs') dollars += c.requests * PRICES.sqsFifoRequest;
    if (service === 's3') dollars += c.requests * (operation === 'PutObject' ? PRICES.s3Put : PRICES.s3Get);
  }
  return dollars;
}
