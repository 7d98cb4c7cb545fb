import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
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

/**
 * Emulators and a data plane over them for the tests of one file (or `describe`): started
 * before its tests, stopped after. Read `aws` and `plane` inside tests and hooks.
 *
 * @example
 * const local = useTestDataPlane();
 * it('…', async () => { await local.plane.observerSink.publish([…]); });
 */
export function useTestDataPlane(options: StartEmulatorsOptions = {}): {
  readonly aws: RunningEmulators;
  readonly plane: DataPlane;
} {
  const fixture = {} as { aws: RunningEmulators; plane: DataPlane };
  beforeAll(async () => {
    fixture.aws = await startTestAws(options);
    fixture.plane = createDataPlane(dataPlaneFromLocalAws(fixture.aws));
  });
  afterAll(async () => {
    fixture.plane?.destroy();
    await fixture.aws?.stop();
  });
  return fixture;
}
