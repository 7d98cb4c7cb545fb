import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RunningEmulators } from '../src/local/emulators.ts';
import { startTestAws } from './support/local-aws.ts';

describe('local emulators', () => {
  let aws: RunningEmulators;
  beforeAll(async () => {
    aws = await startTestAws();
  });
  afterAll(() => aws.stop());

  it('creates the table with the topology key schema', async () => {
    const ddb = new DynamoDBClient({ endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials });
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: aws.tableName }));
    expect(Table?.KeySchema?.map((k) => k.AttributeName)).toEqual(['PK', 'SK']);
    ddb.destroy();
  });

  it('fans the events topic out to the observer queue with raw delivery', async () => {
    const sns = new SNSClient({ endpoint: aws.snsEndpoint, region: aws.region, credentials: aws.credentials });
    const sqs = new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials });
    await sns.send(new PublishCommand({ TopicArn: aws.eventsTopicArn, Message: '{"v":1}' }));
    const { Messages } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: aws.eventsQueueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 1 }),
    );
    expect(Messages?.[0]?.Body).toBe('{"v":1}');
    sns.destroy();
    sqs.destroy();
  });
});
