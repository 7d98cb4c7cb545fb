// The cold-import baseline: the least a webhook λ on this stack needs — Hono behind
// `hono/aws-lambda`, a DynamoDB client and an SQS client — with a handler doing one conditional
// put and one send. Bundled with the gateway's own esbuild options by bench/cold-import.ts.
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

const dynamodb = new DynamoDBClient({});
// The queue URL's host is the endpoint in AWS; against the local emulator it is not, so take the endpoint.
const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
const app = new Hono();
app.post('/webhooks/:platform', async (c) => {
  const body = await c.req.text();
  const deliveryId = c.req.header('x-delivery-id');
  await dynamodb.send(
    new PutItemCommand({
      TableName: process.env.HOOKGATE_TABLE_NAME,
      Item: { PK: { S: `DEDUP#${deliveryId}` }, SK: { S: 'DEDUP' } },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: process.env.HOOKGATE_TURNS_QUEUE_URL,
      MessageBody: body,
      MessageGroupId: 'g',
      MessageDeduplicationId: deliveryId,
    }),
  );
  return c.json({ ok: true }, 202);
});

export const handler = handle(app);
