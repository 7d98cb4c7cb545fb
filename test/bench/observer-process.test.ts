import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { startObserverProcess } from '../../bench/support/observer-process.ts';
import { SingleTableIdempotencyStore } from '../../src/pipeline/idempotency-store.ts';
import { useTestDataPlane } from '../support/local-aws.ts';
import { until } from '../support/until.ts';

/** The pipeline bench's Lambda-like layout: the observer λ's consumer path in a child process. */
describe('bench observer process', () => {
  const local = useTestDataPlane();

  it('runs each published event once through the idempotent consumer, deletes it, reports the count and stops', async () => {
    let reports = 0;
    const observer = await startObserverProcess(local.aws, { pollers: 2, onReport: () => reports++ });
    const ids = Array.from({ length: 30 }, (_, i) => `obs-proc-${i}`);
    await local.plane.observerSink.publish(ids.map((id) => ({ id, type: 'post_tool_call', payload: { id } })));
    await until(() => observer.ran() >= ids.length, 'the child to run every event');
    expect(reports).toBeGreaterThan(0);

    // Done the production way: an idempotency record per envelope id, COMPLETED.
    const key = (id: string) => `${SingleTableIdempotencyStore.KEY_PREFIX}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`;
    const { Item } = await local.plane.idempotency.client.send(
      new GetItemCommand({ TableName: local.aws.tableName, Key: { PK: { S: key(ids[7]!) }, SK: { S: 'IDEMPOTENCY' } }, ConsistentRead: true }),
    );
    expect(Item?.status?.S).toBe('COMPLETED');
    await until(async () => {
      const { Attributes } = await local.plane.clients.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: local.aws.eventsQueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
      );
      return Attributes?.ApproximateNumberOfMessages === '0' && Attributes?.ApproximateNumberOfMessagesNotVisible === '0';
    }, 'the events queue to be empty');

    expect(await observer.stop()).toBe(ids.length);
    expect(() => process.kill(observer.pid, 0)).toThrow();
  });
});
