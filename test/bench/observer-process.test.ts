import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { startObserverProcess } from '../../bench/support/observer-process.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { SingleTableIdempotencyStore } from '../../src/pipeline/idempotency-store.ts';
import { startTestAws } from '../support/local-aws.ts';
import { until } from '../support/until.ts';

/** The pipeline bench's Lambda-like layout: the observer λ's consumer path in a child process. */
describe('bench observer process', () => {
  let aws: RunningEmulators;
  let plane: DataPlane;
  beforeAll(async () => {
    aws = await startTestAws();
    plane = createDataPlane(dataPlaneFromLocalAws(aws));
  });
  afterAll(async () => {
    plane?.destroy();
    await aws?.stop();
  });

  it('runs each published event once through the idempotent consumer, deletes it, reports the count and stops', async () => {
    let reports = 0;
    const observer = await startObserverProcess(aws, { pollers: 2, onReport: () => reports++ });
    const ids = Array.from({ length: 30 }, (_, i) => `obs-proc-${i}`);
    await plane.observerSink.publish(ids.map((id) => ({ id, type: 'post_tool_call', payload: { id } })));
    await until(() => observer.ran() >= ids.length, 'the child to run every event');
    expect(reports).toBeGreaterThan(0);

    // Done the production way: an idempotency record per envelope id, COMPLETED.
    const key = (id: string) => `${SingleTableIdempotencyStore.KEY_PREFIX}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`;
    const { Item } = await plane.idempotency.client.send(
      new GetItemCommand({ TableName: aws.tableName, Key: { PK: { S: key(ids[7]!) }, SK: { S: 'IDEMPOTENCY' } }, ConsistentRead: true }),
    );
    expect(Item?.status?.S).toBe('COMPLETED');
    await until(async () => {
      const { Attributes } = await plane.clients.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: aws.eventsQueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
      );
      return Attributes?.ApproximateNumberOfMessages === '0' && Attributes?.ApproximateNumberOfMessagesNotVisible === '0';
    }, 'the events queue to be empty');

    expect(await observer.stop()).toBe(ids.length);
    expect(() => process.kill(observer.pid, 0)).toThrow();
  });
});
