import { describe, expect, it } from 'vitest';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { dataPlaneFromConfig, DataPlaneEnvError } from '../../src/pipeline/data-plane.ts';
import { parseEnvelope } from '../../src/pipeline/envelope.ts';
import { useTestDataPlane } from '../support/local-aws.ts';

describe('createDataPlane', () => {
  const local = useTestDataPlane();

  it('wires stores and the observer sink to the emulators', async () => {
    expect(await local.plane.dedup.claim('k', 60)).toBe(true);
    const [id] = await local.plane.observerSink.publish([{ type: 'agent:step', payload: { a: 1 } }]);
    const { Messages = [] } = await local.plane.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: local.aws.eventsQueueUrl, WaitTimeSeconds: 1 }),
    );
    expect(parseEnvelope(Messages[0]!.Body!).id).toBe(id);
  });

  it('caches the middleware of the per-event clients; the idempotency store gets a DynamoDB client of its own', async () => {
    // lib-dynamodb refuses cacheMiddleware, so the stores' shared client must not have it.
    expect(local.plane.clients.dynamodb.config.cacheMiddleware).toBeFalsy();
    expect(local.plane.idempotency).toBe(local.plane.idempotency); // built once, on first use
    expect(local.plane.idempotency.client).not.toBe(local.plane.clients.dynamodb);
    expect(local.plane.idempotency.tableName).toBe(local.aws.tableName);
    const sns = await local.plane.clients.sns();
    expect(await local.plane.clients.sns()).toBe(sns); // a loader, built once
    for (const client of [local.plane.idempotency.client, local.plane.clients.sqs, sns]) {
      expect(client.config.cacheMiddleware).toBe(true);
    }
    // The document client still works on the shared client, and the cached one serves several command classes.
    expect(await local.plane.dedup.claim('k2', 60)).toBe(true);
    await local.plane.idempotency.client.send(
      new PutItemCommand({ TableName: local.aws.tableName, Item: { PK: { S: 'IDEMPOTENCY#t' }, SK: { S: 'IDEMPOTENCY' } } }),
    );
    const { Item } = await local.plane.idempotency.client.send(
      new GetItemCommand({ TableName: local.aws.tableName, Key: { PK: { S: 'IDEMPOTENCY#t' }, SK: { S: 'IDEMPOTENCY' } } }),
    );
    expect(Item?.PK?.S).toBe('IDEMPOTENCY#t');
  });

  it("takes a deployed function's resources from the parsed config, naming a missing variable", () => {
    const resources = {
      deploymentVersion: 'v1',
      tableName: 't',
      turnsQueueUrl: 'q1',
      timersQueueUrl: 'q2',
      eventsTopicArn: 'arn',
      payloadBucket: 'b',
    };
    expect(dataPlaneFromConfig({ resources })).toEqual({
      tableName: 't',
      turnsQueueUrl: 'q1',
      timersQueueUrl: 'q2',
      eventsTopicArn: 'arn',
      payloadBucket: 'b',
    });
    const { eventsTopicArn: _missing, ...withoutTopic } = resources;
    expect(() => dataPlaneFromConfig({ resources: withoutTopic })).toThrow(DataPlaneEnvError);
    expect(() => dataPlaneFromConfig({ resources: withoutTopic })).toThrow(/HOOKGATE_EVENTS_TOPIC_ARN/);
    expect(() => dataPlaneFromConfig({ resources: { ...resources, tableName: '' } })).toThrow(/HOOKGATE_TABLE_NAME/);
    // Emulator endpoints and credentials (hookgate dev) pass through.
    const local = { ...resources, region: 'us-east-1', endpoints: { sqs: 'http://127.0.0.1:1' } };
    expect(dataPlaneFromConfig({ resources: local })).toMatchObject({
      region: 'us-east-1',
      endpoints: { sqs: 'http://127.0.0.1:1' },
    });
  });
});
