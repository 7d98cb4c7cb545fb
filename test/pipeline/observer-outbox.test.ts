import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { parseEnvelope } from '../../src/pipeline/envelope.ts';
import { DynamoObserverOutbox } from '../../src/pipeline/observer-outbox.ts';
import { sweepOutbox } from '../../src/pipeline/outbox-sweeper.ts';
import { S3PayloadStore } from '../../src/pipeline/payload-store.ts';
import { SnsObserverSink } from '../../src/pipeline/sns-observer-sink.ts';
import { createDynamoTable } from '../../src/store/dynamo-table.ts';
import { startTestAws } from '../support/local-aws.ts';

describe('the observer outbox', () => {
  let aws: RunningEmulators;
  let up: SNSClient;
  let down: SNSClient;
  let sqs: SQSClient;
  let s3: S3Client;

  beforeAll(async () => {
    aws = await startTestAws();
    const config = { region: aws.region, credentials: aws.credentials };
    up = new SNSClient({ ...config, endpoint: aws.snsEndpoint });
    // Nothing listens on port 9 of loopback: every publish is refused, as in an outage.
    down = new SNSClient({ ...config, endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
    sqs = new SQSClient({ ...config, endpoint: aws.sqsEndpoint });
    s3 = new S3Client({ ...config, endpoint: aws.s3Endpoint, forcePathStyle: true });
  });
  afterAll(async () => {
    for (const client of [up, down, sqs, s3]) client?.destroy();
    await aws?.stop();
  });

  it('keeps what SNS refuses, holds the session behind it, and the sweep publishes all of it in order', async () => {
    const outbox = new DynamoObserverOutbox(
      createDynamoTable({
        tableName: aws.tableName,
        client: { endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials },
      }),
    );
    let sns = down;
    const sink = new SnsObserverSink({
      sns: async () => sns,
      topicArn: aws.eventsTopicArn,
      payloads: new S3PayloadStore(s3, aws.payloadBucket),
      outbox,
      baseDelayMs: 1,
    });
    const event = (n: number, session = 's-out') => ({ id: `e${n}`, type: 'agent:step', payload: { n }, session_id: session });

    // SNS down: the publish resolves (the events are durable on the table).
    expect(await sink.publish([event(1), event(2), event(3)])).toEqual(['e1', 'e2', 'e3']);
    expect(await outbox.isPending('s-out')).toBe(true);
    // SNS back, but the session still has events waiting: the next one queues up behind them.
    sns = up;
    await sink.publish([event(4)]);
    expect((await outbox.listSession('s-out')).map((entry) => entry.id)).toEqual(['e1', 'e2', 'e3', 'e4']);

    const sweep = await sweepOutbox({ outbox, republish: (entries) => sink.republish(entries) });
    expect(sweep).toEqual({ published: 4, drained: 1, waiting: 0 });
    expect(await outbox.isPending('s-out')).toBe(false);
    expect(await outbox.listSession('s-out')).toEqual([]);

    // Released: the next event goes straight to SNS.
    await sink.publish([event(5)]);
    expect(await outbox.listSession('s-out')).toEqual([]);
    const seen: string[] = [];
    for (let tries = 0; seen.length < 5 && tries < 20; tries++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: aws.eventsQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      seen.push(...Messages.map((m) => parseEnvelope(m.Body!).id));
      if (Messages.length) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: aws.eventsQueueUrl,
            Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
          }),
        );
      }
    }
    expect(seen).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
  });

  it('a sweep while SNS still refuses publishes nothing and keeps the session waiting', async () => {
    const outbox = new DynamoObserverOutbox(
      createDynamoTable({
        tableName: aws.tableName,
        client: { endpoint: aws.dynamodbEndpoint, region: aws.region, credentials: aws.credentials },
      }),
    );
    const sink = new SnsObserverSink({
      sns: down,
      topicArn: aws.eventsTopicArn,
      payloads: new S3PayloadStore(s3, aws.payloadBucket),
      outbox,
      baseDelayMs: 1,
    });
    await sink.publish([{ id: 'w1', type: 'agent:step', payload: {}, session_id: 's-wait' }]);
    expect(await sweepOutbox({ outbox, republish: (entries) => sink.republish(entries) })).toEqual({
      published: 0,
      drained: 0,
      waiting: 1,
    });
    expect((await outbox.listSession('s-wait')).map((entry) => entry.id)).toEqual(['w1']);
  });
});
