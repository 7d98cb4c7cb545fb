import { describe, expect, it } from 'vitest';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startEmulatorsProcess } from '../support/emulators-process.ts';

describe('startEmulatorsProcess', () => {
  it('serves the topology from a child process and stops it', async () => {
    const aws = await startEmulatorsProcess({ tableName: 'hookgate-child' });
    const config = { region: aws.region, credentials: aws.credentials };
    const sqs = new SQSClient({ ...config, endpoint: aws.sqsEndpoint });
    const ddb = new DynamoDBClient({ ...config, endpoint: aws.dynamodbEndpoint, maxAttempts: 1 });
    try {
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: aws.eventsQueueUrl, AttributeNames: ['RedrivePolicy'] }),
      );
      expect(JSON.parse(Attributes!.RedrivePolicy!).maxReceiveCount).toBe(5);
      const { Table } = await ddb.send(new DescribeTableCommand({ TableName: 'hookgate-child' }));
      expect(Table?.TableName).toBe('hookgate-child');
    } finally {
      await aws.stop();
    }
    await expect(ddb.send(new DescribeTableCommand({ TableName: 'hookgate-child' }))).rejects.toThrow();
    sqs.destroy();
    ddb.destroy();
  });
});
