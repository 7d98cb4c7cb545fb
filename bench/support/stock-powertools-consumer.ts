import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { parseEnvelope, type Envelope } from '../../src/pipeline/envelope.ts';

/**
 * The `observer-pipeline` baseline: what a user would write for an SQS observer on Powertools
 * without hookgate, doing the same per-event work as hookgate's consumer (parse the envelope,
 * run the observers once per envelope id): `BatchProcessor` + `makeIdempotent` over the stock
 * `DynamoDBPersistenceLayer`, configured for the same table's PK/SK layout and nothing else.
 *
 * @example
 * const handler = stockPowertoolsConsumer({ tableName, client }, engine);
 */
export function stockPowertoolsConsumer(
  table: { tableName: string; client: DynamoDBClient },
  engine: { runObservers(type: string, payload: Record<string, unknown>): Promise<unknown> },
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: table.tableName,
    keyAttr: 'PK',
    sortKeyAttr: 'SK',
    staticPkValue: 'bench-stock-idempotency',
    awsSdkV3Client: table.client,
  });
  const config = new IdempotencyConfig({ eventKeyJmesPath: 'id', expiresAfterSeconds: 4 * 86_400 });
  const runOnce = makeIdempotent(
    async (envelope: Envelope & { payload: Record<string, unknown> }) => {
      await engine.runObservers(envelope.type, envelope.payload);
      return { ran: true };
    },
    { persistenceStore, config },
  );
  return (event) => {
    // As on Lambda, where each invocation has a context; locally there is none: the time left
    // is the function's timeout. One processor per invocation: on Lambda an instance runs one
    // batch at a time, while the local pollers here overlap.
    const started = Date.now();
    config.registerLambdaContext({ getRemainingTimeInMillis: () => 30_000 - (Date.now() - started) } as Context);
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(
      event,
      async (record: SQSRecord) => {
        await runOnce(parseEnvelope(record.body) as Envelope & { payload: Record<string, unknown> });
      },
      processor,
      { throwOnFullBatchFailure: false },
    );
  };
}
