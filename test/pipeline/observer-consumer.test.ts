import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startSqsPoller, type SqsPoller } from '../../src/local/sqs-poller.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { createObserverConsumer } from '../../src/runtime/observer-consumer.ts';
import { DeadLetterQueue } from '../../src/pipeline/dead-letter-queue.ts';
import { MAX_RECEIVE_COUNT } from '../../src/pipeline/topology.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startTestAws } from '../support/local-aws.ts';
import { until } from '../support/until.ts';

/** A minimal engine: records every run; fails events marked `fail` while `broken` is set. */
function recordingEngine() {
  const runs: { type: string; payload: Record<string, unknown> }[] = [];
  const engine = {
    broken: true,
    runs,
    async runObservers(type: string, payload: Record<string, unknown>) {
      if (engine.broken && payload.fail === true) throw new Error(`observer for ${type} failed`);
      runs.push({ type, payload });
    },
  };
  return engine;
}

describe('observer consumer: SNS → SQS → poller → BatchProcessor → engine', () => {
  let aws: RunningEmulators;
  let plane: DataPlane;
  let poller: SqsPoller | undefined;
  let processed = 0;
  const logger = createMemoryLogger();
  const engine = recordingEngine();

  const startConsumer = async () => {
    const consumer = createObserverConsumer({
      engine,
      table: plane.idempotency,
      payloads: plane.payloads,
      logger,
    });
    poller = await startSqsPoller({
      sqs: plane.clients.sqs,
      queueUrl: aws.eventsQueueUrl,
      batchWindowMs: 100,
      handler: async (event) => {
        const response = await consumer(event);
        processed += event.Records.length;
        return response;
      },
    });
  };
  const depth = async (queueUrl: string) => {
    const { Attributes } = await plane.clients.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return Number(Attributes!.ApproximateNumberOfMessages) + Number(Attributes!.ApproximateNumberOfMessagesNotVisible);
  };

  beforeAll(async () => {
    aws = await startTestAws({ eventsVisibilityTimeout: 1 });
    plane = createDataPlane(dataPlaneFromLocalAws(aws));
    await startConsumer();
  });
  afterEach(() => {
    engine.runs.length = 0;
    engine.broken = true;
  });
  afterAll(async () => {
    await poller?.stop();
    plane?.destroy();
    await aws?.stop();
  });

  it('runs the observers of an envelope delivered 3 times once', async () => {
    for (let i = 0; i < 3; i++) {
      await plane.observerSink.publish([{ id: 'dup-1', type: 'post_tool_call', payload: { tool_name: 'terminal', i } }]);
    }
    const before = processed;
    await plane.observerSink.publish([{ id: 'other', type: 'agent:step', payload: {} }]);
    await until(async () => processed - before >= 1 && (await depth(aws.eventsQueueUrl)) === 0, 'the queue to drain');
    expect(engine.runs.filter((r) => r.type === 'post_tool_call')).toHaveLength(1);
    expect(engine.runs.filter((r) => r.type === 'agent:step')).toHaveLength(1);
    // The idempotency record sits on the single table, one partition per envelope id, with the TTL attribute.
    const { Items = [] } = await plane.table.doc.send(
      new ScanCommand({
        TableName: aws.tableName,
        FilterExpression: 'begins_with(PK, :p)',
        ExpressionAttributeValues: { ':p': 'IDEMPOTENCY#observer#' },
      }),
    );
    expect(Items.length).toBeGreaterThanOrEqual(2);
    for (const item of Items) {
      expect(item).toMatchObject({ SK: 'IDEMPOTENCY', status: 'COMPLETED' });
      expect(typeof item.expires_at).toBe('number');
    }
  });

  it('returns only failed records, moves them to the DLQ after N receives, and dlq replay makes them succeed', async () => {
    const ids = await plane.observerSink.publish([
      { type: 'agent:step', payload: { n: 1 } },
      { type: 'post_tool_call', payload: { n: 2, fail: true } },
      { type: 'agent:step', payload: { n: 3 } },
      { type: 'post_llm_call', payload: { n: 4, fail: true } },
    ]);
    await plane.clients.sqs.send(new SendMessageCommand({ QueueUrl: aws.eventsQueueUrl, MessageBody: 'not an envelope' }));
    await until(async () => (await depth(aws.eventsDlqUrl)) === 3, 'three messages in the DLQ');
    expect(engine.runs.map((r) => r.payload.n).sort()).toEqual([1, 3]); // the good ones ran once, were not redelivered
    expect(
      logger.lines.some(
        (l) =>
          l.level === 'error' &&
          l.message.includes(`observer event ${ids[1]} (post_tool_call) failed on receive ${MAX_RECEIVE_COUNT}`),
      ),
    ).toBe(true);

    const dlq = new DeadLetterQueue({
      sqs: plane.clients.sqs,
      dlqUrl: aws.eventsDlqUrl,
      sourceQueueUrl: aws.eventsQueueUrl,
      holdSeconds: 5,
    });
    const listed = await dlq.list();
    expect(listed.map((l) => l.id).sort()).toEqual([ids[1], ids[3], null].sort());
    expect(listed.find((l) => l.id === ids[1])).toMatchObject({ type: 'post_tool_call', receiveCount: expect.any(Number) });

    engine.broken = false;
    expect((await dlq.replay({ id: ids[1] })).map((l) => l.id)).toEqual([ids[1]]);
    await until(() => engine.runs.some((r) => r.payload.n === 2), 'the replayed event to run');
    expect((await dlq.list()).map((l) => l.id).sort()).toEqual([ids[3], null].sort());
    await dlq.replay({ id: ids[3] });
    await until(() => engine.runs.some((r) => r.payload.n === 4), 'the second replayed event to run');
    expect(engine.runs.map((r) => r.payload.n).sort()).toEqual([1, 2, 3, 4]);
    expect(await dlq.purge()).toBe(1);
    await until(async () => (await depth(aws.eventsDlqUrl)) === 0, 'an empty DLQ');
  });

  it('round-trips an oversized envelope intact through S3', async () => {
    const payload = { tool_name: 'read_file', result: '🙂 long line\n'.repeat(40_000), args: { path: '/x' } };
    const [id] = await plane.observerSink.publish([{ type: 'post_tool_call', payload }]);
    await until(() => engine.runs.length === 1, 'the oversized event to run');
    expect(engine.runs[0]).toEqual({ type: 'post_tool_call', payload });
    expect(id).toBeTruthy();
  });

  it('holds back a copy of an event that another delivery is still handling, logged as a warning, and runs it once', async () => {
    // Two copies of one event (a publish retried, an SQS redelivery) handled at the same time: the
    // second finds the first's lock, fails its record so SQS brings it back, and is not an error.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runs: string[] = [];
    const slowEngine = {
      hasObservers: () => true,
      async runObservers(type: string) {
        runs.push(type);
        await gate;
      },
    } as unknown as Parameters<typeof createObserverConsumer>[0]['engine'];
    const lines = createMemoryLogger();
    const consumer = createObserverConsumer({
      engine: slowEngine,
      table: plane.idempotency,
      payloads: plane.payloads,
      logger: lines,
    });
    const body = JSON.stringify({
      v: 1,
      id: 'held-back-1',
      type: 'post_tool_call',
      occurred_at: new Date().toISOString(),
      session_id: null,
      turn_id: null,
      payload: { tool_name: 'terminal' },
    });
    const copy = (messageId: string) =>
      ({
        Records: [
          { messageId, body, attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, eventSource: 'aws:sqs' },
        ],
      }) as unknown as Parameters<typeof consumer>[0];
    const first = consumer(copy('m-1'));
    await until(() => runs.length === 1, 'the first copy to be running');
    expect(await consumer(copy('m-2'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    release();
    expect(await first).toEqual({ batchItemFailures: [] });
    // The copy coming back finds the event done.
    expect(await consumer(copy('m-2'))).toEqual({ batchItemFailures: [] });
    expect(runs).toEqual(['post_tool_call']);
    expect(lines.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'observer event held-back-1 (post_tool_call) is being handled by another delivery (receive 1); this copy is retried later',
    ]);
  });
});
