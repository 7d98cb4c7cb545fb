import type { AddressInfo } from 'node:net';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime } from '../../src/local/dev-runtime.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';

let server: ReturnType<typeof dynalite>;
let endpoint: string;
let home: TempHome;

beforeAll(async () => {
  server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  home = await tempHome();
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await home.remove();
});

describe('startDevRuntime({ dynamodbEndpoint })', () => {
  it('uses the given DynamoDB (its table created there) and leaves it running when dev stops', async () => {
    const dev = await startDevRuntime({
      home: home.path,
      port: 0,
      env: { HOOKGATE_LOG_LEVEL: 'error' },
      console: false,
      print: () => {},
      createEngine: (options) => createHookEngine({ ...options, print: () => {}, logger: createMemoryLogger() }),
      dynamodbEndpoint: endpoint,
    });
    const ddb = new DynamoDBClient({ endpoint, region: dev.aws.region, credentials: dev.aws.credentials, maxAttempts: 1 });
    try {
      expect(dev.aws.dynamodbEndpoint).toBe(endpoint);
      expect((await ddb.send(new DescribeTableCommand({ TableName: dev.aws.tableName }))).Table?.TableName).toBe(
        dev.aws.tableName,
      );
      await dev.stop();
      expect((await ddb.send(new DescribeTableCommand({ TableName: dev.aws.tableName }))).Table?.TableName).toBe(
        dev.aws.tableName,
      );
    } finally {
      ddb.destroy();
    }
  });
});
