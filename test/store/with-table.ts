import { afterAll, beforeAll } from 'vitest';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { createDynamoTable, type DynamoTable } from '../../src/store/dynamo-table.ts';
import { startTestAws } from '../support/local-aws.ts';

/** Starts this file's emulators once and hands out the table (dynalite, or DynamoDB Local in CI). */
export function withTable(): { table: () => DynamoTable; aws: () => RunningEmulators } {
  let aws: RunningEmulators;
  let table: DynamoTable;
  beforeAll(async () => {
    aws = await startTestAws();
    table = createDynamoTable({
      tableName: aws.tableName,
      client: { endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials },
    });
  });
  afterAll(async () => {
    table?.doc.destroy();
    await aws?.stop();
  });
  return { table: () => table, aws: () => aws };
}
