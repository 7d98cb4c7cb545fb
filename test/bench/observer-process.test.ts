import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { startObserverProcess } from '../../bench/support/observer-process.ts';
import { startOtlpCounter } from '../../bench/support/otlp-counter.ts';
import { TURN_TRACE_EVENT, type TurnTracePayload } from '../../src/telemetry/turn-trace-event.ts';
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
    const key = (id: string) =>
      `${SingleTableIdempotencyStore.KEY_PREFIX}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`;
    const { Item } = await local.plane.idempotency.client.send(
      new GetItemCommand({
        TableName: local.aws.tableName,
        Key: { PK: { S: key(ids[7]!) }, SK: { S: 'IDEMPOTENCY' } },
        ConsistentRead: true,
      }),
    );
    expect(Item?.status?.S).toBe('COMPLETED');
    await until(async () => {
      const { Attributes } = await local.plane.clients.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: local.aws.eventsQueueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return Attributes?.ApproximateNumberOfMessages === '0' && Attributes?.ApproximateNumberOfMessagesNotVisible === '0';
    }, 'the events queue to be empty');

    expect(await observer.stop()).toBe(ids.length);
    expect(() => process.kill(observer.pid, 0)).toThrow();
  });

  it('with otlp, exports turn traces to the receiver only while the export is switched on', async () => {
    const otlp = await startOtlpCounter();
    const observer = await startObserverProcess(local.aws, { pollers: 1, otlp: otlp.url });
    try {
      const trace = (turn_id: string): TurnTracePayload => ({
        turn_id,
        session_id: 's',
        platform: 'local',
        model: 'm',
        provider: 'hookgate-local',
        resumed: false,
        started_at: new Date().toISOString(),
        duration_ms: 3,
        outcome: 'completed',
        undelivered_replies: 0,
        operations: [
          {
            kind: 'hook',
            id: 'op1',
            parent: null,
            hook: 'pre_llm_call',
            source: 'plugin',
            callback: 'cb',
            decision: 'allow',
            started_at: new Date().toISOString(),
            duration_ms: 1,
          },
        ],
      });
      await local.plane.observerSink.publish([{ type: TURN_TRACE_EVENT, payload: { ...trace('off-1') } }]);
      await until(() => observer.taken() >= 1, 'the export-off event to be taken');
      expect(observer.exported()).toBe(0);
      expect(otlp.traces.posts).toBe(0);

      await observer.setExport(true);
      await local.plane.observerSink.publish([
        { type: TURN_TRACE_EVENT, payload: { ...trace('on-1') } },
        { type: TURN_TRACE_EVENT, payload: { ...trace('on-2') } },
      ]);
      await until(() => observer.taken() >= 3 && observer.exported() >= 2, 'the export-on events to be exported');
      expect(otlp.traces.posts).toBe(2);
      expect(otlp.traces.bytes).toBeGreaterThan(0);
      expect(otlp.metrics.posts).toBeGreaterThan(0);
    } finally {
      await observer.stop();
      await otlp.close();
    }
  });
});
