import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { toSqsRecord } from '../../src/local/sqs-event.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { SingleTableIdempotencyStore } from '../../src/pipeline/idempotency-store.ts';
import { createObserverConsumer, TELEMETRY_KEY_PREFIX } from '../../src/runtime/observer-consumer.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { TURN_TRACE_EVENT } from '../../src/telemetry/turn-trace-event.ts';
import { startTestAws } from '../support/local-aws.ts';

/**
 * An event that carries telemetry and has observers takes two idempotency records, one per
 * prefix (the observers' and the telemetry's), each written and completed under its own key
 * while the batch's records run side by side. Both used to share one Powertools persistence
 * layer, whose key prefix is a field that each call re-sets: a record's completion could be
 * written under the other prefix, leaving its own lock INPROGRESS (a redelivered copy then ran
 * it again once the lock lapsed) and marking the other one done before it ran.
 */
describe('observer consumer: observers and telemetry, side by side in one batch', () => {
  let aws: RunningEmulators;
  let plane: DataPlane;
  const runs: string[] = [];
  const recorded: string[] = [];
  const logger = createMemoryLogger();

  beforeAll(async () => {
    aws = await startTestAws();
    plane = createDataPlane(dataPlaneFromLocalAws(aws));
  });
  afterAll(async () => {
    plane?.destroy();
    await aws?.stop();
  });

  const keyOf = (prefix: string, id: string) => `${prefix}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`;
  const batchOf = (ids: string[]) => ({
    Records: ids.map((id) =>
      toSqsRecord(
        {
          MessageId: randomUUID(),
          ReceiptHandle: 'r',
          Body: JSON.stringify({
            v: 1,
            id,
            type: TURN_TRACE_EVENT,
            occurred_at: new Date().toISOString(),
            session_id: null,
            turn_id: null,
            payload: { id },
          }),
        },
        'arn:aws:sqs:us-east-1:000000000000:hookgate-events',
        'us-east-1',
      ),
    ),
  });

  it('completes both records of every event under its own key: each runs once, however the batch is delivered again', async () => {
    const consumer = createObserverConsumer({
      // Each takes a few ms, as an export or a hook does: the batch's records interleave.
      engine: {
        runObservers: async (_type, payload) => {
          await sleep(3);
          runs.push(String(payload.id));
        },
      },
      telemetry: {
        handles: (type) => type === TURN_TRACE_EVENT,
        record: async (id) => {
          await sleep(2);
          recorded.push(id);
        },
        flush: async () => {},
      },
      table: plane.idempotency,
      payloads: plane.payloads,
      logger,
    });
    const ids = Array.from({ length: 10 }, () => randomUUID());
    expect((await consumer(batchOf(ids))).batchItemFailures).toEqual([]);

    const keys = ids.flatMap((id) => [keyOf(SingleTableIdempotencyStore.KEY_PREFIX, id), keyOf(TELEMETRY_KEY_PREFIX, id)]);
    const { Responses } = await plane.clients.dynamodb.send(
      new BatchGetItemCommand({
        RequestItems: {
          [aws.tableName]: { Keys: keys.map((PK) => ({ PK: { S: PK }, SK: { S: 'IDEMPOTENCY' } })), ConsistentRead: true },
        },
      }),
    );
    const status = Object.fromEntries((Responses?.[aws.tableName] ?? []).map((item) => [item.PK!.S!, item.status?.S]));
    expect(keys.map((key) => status[key])).toEqual(keys.map(() => 'COMPLETED'));
    // Nothing written under a key that no event has.
    expect(Responses?.[aws.tableName]).toHaveLength(keys.length);

    // Delivered again (SQS's at-least-once): nothing runs twice, nothing is refused as in progress.
    expect((await consumer(batchOf(ids))).batchItemFailures).toEqual([]);
    expect(runs.sort()).toEqual([...ids].sort());
    expect(recorded.sort()).toEqual([...ids].sort());
    expect(logger.lines.filter((l) => l.level !== 'debug')).toEqual([]);
  });
});
