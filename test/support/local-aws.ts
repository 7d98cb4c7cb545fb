import { randomUUID } from 'node:crypto';
import { startEmulators, type RunningEmulators, type StartEmulatorsOptions } from '../../src/local/emulators.ts';

/**
 * Fresh emulators for one test file: its own fauxqs (queues, topic, bucket) and its own
 * table. With HOOKGATE_TEST_DYNAMODB_ENDPOINT set (the CI fidelity run against DynamoDB
 * Local), the table lives there under a unique name.
 */
export function startTestAws(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const shared = process.env.HOOKGATE_TEST_DYNAMODB_ENDPOINT;
  return startEmulators({
    ...options,
    ...(shared ? { dynamodbEndpoint: shared, tableName: `hookgate-${randomUUID()}` } : {}),
  });
}
