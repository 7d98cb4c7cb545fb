import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startSqsPoller } from '../../src/local/sqs-poller.ts';
import { startTestAws } from '../support/local-aws.ts';
import { until } from '../support/until.ts';

describe('startSqsPoller', () => {
  let aws: RunningEmulators;
  let sqs: SQSClient;
  beforeAll(async () => {
    aws = await startTestAws({ eventsVisibilityTimeout: 1 });
    sqs = new SQSClient({ endpoint: aws.sqsEndpoint, region: aws.region, credentials: aws.credentials });
  });
  afterAll(async () => {
    sqs?.destroy();
    await aws?.stop();
  });

  it('hands over the exact SQSEvent record shape and deletes what succeeded', async () => {
    const events: SQSEvent[] = [];
    const poller = await startSqsPoller({
      sqs,
      queueUrl: aws.eventsQueueUrl,
      handler: async (event) => void events.push(event),
      batchWindowMs: 200,
    });
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: aws.eventsQueueUrl,
        MessageBody: '{"hello":1}',
        MessageAttributes: {
          event_type: { DataType: 'String', StringValue: 'agent:step' },
          blob: { DataType: 'Binary', BinaryValue: Buffer.from('hi') },
        },
      }),
    );
    await until(() => events.length > 0, 'the batch');
    await poller.stop();
    const record = events[0]!.Records[0]!;
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: aws.eventsQueueUrl,
        AttributeNames: ['QueueArn', 'ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(record).toMatchObject({
      body: '{"hello":1}',
      eventSource: 'aws:sqs',
      eventSourceARN: Attributes!.QueueArn,
      awsRegion: aws.region,
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {
        event_type: { stringValue: 'agent:step', stringListValues: [], binaryListValues: [], dataType: 'String' },
        blob: { binaryValue: Buffer.from('hi').toString('base64'), dataType: 'Binary' },
      },
    });
    expect(record.messageId).toMatch(/\S/);
    expect(record.receiptHandle).toMatch(/\S/);
    expect(record.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    for (const name of ['SentTimestamp', 'ApproximateFirstReceiveTimestamp'] as const) {
      expect(record.attributes[name]).toMatch(/^\d{13}$/);
    }
    expect(record.attributes.SenderId).toMatch(/\S/);
    expect(Attributes!.ApproximateNumberOfMessages).toBe('0');
    expect(Attributes!.ApproximateNumberOfMessagesNotVisible).toBe('0');
  });

  it('leaves batchItemFailures for redelivery and deletes the rest', async () => {
    const seen: SQSRecord[] = [];
    let failOnce = true;
    const poller = await startSqsPoller({
      sqs,
      queueUrl: aws.eventsQueueUrl,
      batchWindowMs: 300,
      handler: async ({ Records }) => {
        seen.push(...Records);
        const bad = Records.find((r) => r.body === 'b');
        if (bad && failOnce) {
          failOnce = false;
          return { batchItemFailures: [{ itemIdentifier: bad.messageId }] };
        }
        return { batchItemFailures: [] };
      },
    });
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: aws.eventsQueueUrl,
        Entries: ['a', 'b', 'c'].map((body, i) => ({ Id: String(i), MessageBody: body })),
      }),
    );
    await until(() => seen.filter((r) => r.body === 'b').length === 2, 'the redelivery of b');
    await poller.stop();
    expect(seen.map((r) => r.body).sort()).toEqual(['a', 'b', 'b', 'c']);
    expect(seen.filter((r) => r.body === 'b').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
  });

  it('keeps FIFO order per group with 3 groups interleaved, one batch in flight per group', async () => {
    const received = new Map<string, number[]>();
    const inFlight = new Set<string>();
    let overlap = false;
    const poller = await startSqsPoller({
      sqs,
      queueUrl: aws.turnsQueueUrl,
      batchSize: 1,
      concurrency: 3,
      handler: async ({ Records }) => {
        const record = Records[0]!;
        const group = record.attributes.MessageGroupId!;
        if (inFlight.has(group)) overlap = true;
        inFlight.add(group);
        await new Promise((r) => setTimeout(r, 2));
        const list = received.get(group) ?? [];
        list.push(Number(JSON.parse(record.body).n));
        received.set(group, list);
        expect(record.attributes.SequenceNumber).toMatch(/\d/);
        expect(record.attributes.MessageDeduplicationId).toBe(`d-${group}-${JSON.parse(record.body).n}`);
        inFlight.delete(group);
      },
    });
    const groups = ['g1', 'g2', 'g3'];
    for (let n = 0; n < 10; n++) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: aws.turnsQueueUrl,
          Entries: groups.map((g, i) => ({
            Id: String(i),
            MessageBody: JSON.stringify({ n }),
            MessageGroupId: g,
            MessageDeduplicationId: `d-${g}-${n}`,
          })),
        }),
      );
    }
    await until(() => groups.every((g) => (received.get(g)?.length ?? 0) === 10), 'all 30 turns');
    await poller.stop();
    for (const g of groups) expect(received.get(g)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(overlap).toBe(false);
  });

  it('stops after the poll in progress, leaving later messages to the next consumer', async () => {
    const handled: string[] = [];
    const poller = await startSqsPoller({
      sqs,
      queueUrl: aws.timersQueueUrl,
      handler: async ({ Records }) => void handled.push(...Records.map((r) => r.body)),
      waitTimeSeconds: 1,
    });
    await new Promise((r) => setTimeout(r, 100));
    await poller.stop();
    await sqs.send(new SendMessageCommand({ QueueUrl: aws.timersQueueUrl, MessageBody: 'after-stop' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.timersQueueUrl, WaitTimeSeconds: 1 }));
    expect(Messages?.map((m) => m.Body)).toEqual(['after-stop']);
    expect(handled).toEqual([]);
  });

  it('drains: handles every message the queue holds, then ends, leaving what comes after', async () => {
    // A queue of its own: the other tests leave messages behind on theirs.
    const { QueueUrl: queueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'poller-drain' }));
    const handled: string[] = [];
    const poller = await startSqsPoller({
      sqs,
      queueUrl: queueUrl!,
      // Slower than the sends, so most messages are still queued when the drain begins.
      handler: async ({ Records }) => {
        handled.push(...Records.map((r) => r.body));
        await new Promise((r) => setTimeout(r, 50));
      },
      batchSize: 2,
      waitTimeSeconds: 1,
    });
    const bodies = Array.from({ length: 12 }, (_, i) => `m${i}`);
    for (let i = 0; i < bodies.length; i += 4) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: bodies.slice(i, i + 4).map((body, n) => ({ Id: String(n), MessageBody: body })),
        }),
      );
    }
    await poller.drain();
    expect([...handled].sort()).toEqual([...bodies].sort());
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'after-drain' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
    expect(Messages?.map((m) => m.Body)).toEqual(['after-drain']);
    expect(handled).not.toContain('after-drain');
  });
});
