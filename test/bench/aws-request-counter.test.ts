import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { AwsRequestCounter } from '../../bench/support/aws-request-counter.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';

/** The cost bench's counter: what it counts must be what was sent (against the emulators). */
describe('AwsRequestCounter', () => {
  let aws: RunningEmulators;
  let dynamodb: DynamoDBClient;
  let sqs: SQSClient;
  beforeAll(async () => {
    aws = await startTestAws();
    dynamodb = new DynamoDBClient({ endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials });
    sqs = new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials });
  });
  afterAll(async () => {
    dynamodb?.destroy();
    sqs?.destroy();
    await aws?.stop();
  });

  it('counts requests by label and operation, with DynamoDB units, refused conditions and empty receives', async () => {
    const counter = new AwsRequestCounter();
    counter.attach(dynamodb, 'fn dynamodb');
    counter.attach(sqs, 'fn sqs');
    const Item = { PK: { S: 'COUNT#1' }, SK: { S: 'x' }, data: { S: 'a'.repeat(1500) } }; // > 1 KB: 2 write units
    await dynamodb.send(new PutItemCommand({ TableName: aws.tableName, Item }));
    await expect(
      dynamodb.send(new PutItemCommand({ TableName: aws.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' })),
    ).rejects.toThrow();
    await dynamodb.send(
      new GetItemCommand({ TableName: aws.tableName, Key: { PK: Item.PK, SK: Item.SK }, ConsistentRead: true }),
    );
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.eventsQueueUrl, WaitTimeSeconds: 0 }));
    await sqs.send(new SendMessageCommand({ QueueUrl: aws.eventsQueueUrl, MessageBody: '{}' }));

    const counts = counter.snapshot();
    expect(Object.keys(counts)).toEqual([
      'fn dynamodb GetItem',
      'fn dynamodb PutItem',
      'fn sqs ReceiveMessage',
      'fn sqs SendMessage',
    ]);
    expect(counts['fn dynamodb PutItem']).toMatchObject({ requests: 2, failedConditions: 1, writeUnits: 2 + 1 });
    expect(counts['fn dynamodb GetItem']).toMatchObject({ requests: 1, readUnits: 1, writeUnits: 0 });
    expect(counts['fn sqs ReceiveMessage']).toMatchObject({ requests: 1, empty: 1 });
    expect(counts['fn sqs SendMessage']).toMatchObject({ requests: 1, empty: 0 });
    counter.reset();
    expect(counter.snapshot()).toEqual({});
  });

  it('labels each request by what a label function says when it is sent', async () => {
    const counter = new AwsRequestCounter();
    let turn = 'm1';
    counter.attach(dynamodb, () => `${turn} dynamodb`);
    const Key = { PK: { S: 'COUNT#2' }, SK: { S: 'x' } };
    await dynamodb.send(new GetItemCommand({ TableName: aws.tableName, Key }));
    turn = 'm2';
    await dynamodb.send(new GetItemCommand({ TableName: aws.tableName, Key }));
    await dynamodb.send(new GetItemCommand({ TableName: aws.tableName, Key }));
    expect(counter.snapshot()).toMatchObject({ 'm1 dynamodb GetItem': { requests: 1 }, 'm2 dynamodb GetItem': { requests: 2 } });
  });
});
