import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchGetItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { toSqsRecord } from '../../src/local/sqs-event.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { createObserverConsumer, TELEMETRY_KEY_PREFIX, type ObserverHandler } from '../../src/runtime/observer-consumer.ts';
import { IdempotencyPrefixError, SingleTableIdempotencyStore } from '../../src/pipeline/idempotency-store.ts';
import { TURN_TRACE_EVENT } from '../../src/telemetry/turn-trace-event.ts';
import { IdempotencyConfig, IdempotencyValidationError, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startTestAws } from '../support/local-aws.ts';

/** The record key Powertools makes of an envelope id under `prefix` (md5 of its JSON). */
const keyUnder = (prefix: string, id: string) => `${prefix}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`;

/** An SQS record carrying an envelope of `type` whose payload is `{ id }`. */
function envelopeRecord(id: string, type: string) {
  return toSqsRecord(
    {
      MessageId: randomUUID(),
      ReceiptHandle: 'r',
      Body: JSON.stringify({
        v: 1,
        id,
        type,
        occurred_at: new Date().toISOString(),
        session_id: null,
        turn_id: null,
        payload: { id },
      }),
    },
    'arn:aws:sqs:us-east-1:000000000000:hookgate-events',
    'us-east-1',
  );
}

/**
 * The observer consumer's lock is Powertools' own conditional PutItem on the single table's
 * key layout; these cases pin what it decides for every record state already in the table,
 * on dynalite and on DynamoDB Local (the CI fidelity run).
 */
describe('idempotency lock (conditional PutItem) on existing records', () => {
  let aws: RunningEmulators;
  let plane: DataPlane;
  let consumer: ObserverHandler;
  const runs: string[] = [];

  const keyOf = (id: string) => keyUnder(SingleTableIdempotencyStore.KEY_PREFIX, id);
  const seed = (id: string, attributes: Record<string, { S: string } | { N: string }>) =>
    plane.clients.dynamodb.send(
      new PutItemCommand({ TableName: aws.tableName, Item: { PK: { S: keyOf(id) }, SK: { S: 'IDEMPOTENCY' }, ...attributes } }),
    );
  const deliver = (id: string) => consumer({ Records: [envelopeRecord(id, 'post_tool_call')] });
  const seconds = (offset: number) => ({ N: String(Math.floor(Date.now() / 1000) + offset) });
  const millis = (offset: number) => ({ N: String(Date.now() + offset) });

  beforeAll(async () => {
    aws = await startTestAws();
    plane = createDataPlane(dataPlaneFromLocalAws(aws));
    consumer = createObserverConsumer({
      engine: { runObservers: async (_type, payload) => void runs.push(String(payload.id)) },
      table: plane.idempotency,
      payloads: plane.payloads,
      logger: createMemoryLogger(),
    });
  });
  afterAll(async () => {
    plane?.destroy();
    await aws?.stop();
  });

  it('takes the lock of a new id and records it COMPLETED', async () => {
    const response = await deliver('fresh');
    expect(response.batchItemFailures).toEqual([]);
    expect(runs.filter((r) => r === 'fresh')).toHaveLength(1);
    const { Item } = await plane.clients.dynamodb.send(
      new GetItemCommand({
        TableName: aws.tableName,
        Key: { PK: { S: keyOf('fresh') }, SK: { S: 'IDEMPOTENCY' } },
        ConsistentRead: true,
      }),
    );
    expect(Item?.status?.S).toBe('COMPLETED');
    expect(Item?.data).toEqual({ M: { ran: { BOOL: true } } }); // the handler's result, as Powertools stores it
    expect(Number(Item?.expires_at?.N)).toBeGreaterThan(Date.now() / 1000);
  });

  it('does not run an id whose COMPLETED record is still valid, even with a lapsed in-progress expiry on it', async () => {
    await seed('done', {
      status: { S: 'COMPLETED' },
      expires_at: seconds(3600),
      in_progress_expiration: millis(-60_000),
      data: { S: 'x' },
    });
    const response = await deliver('done');
    expect(response.batchItemFailures).toEqual([]);
    expect(runs).not.toContain('done');
  });

  it('runs an id whose record has expired', async () => {
    await seed('expired', { status: { S: 'COMPLETED' }, expires_at: seconds(-10) });
    expect((await deliver('expired')).batchItemFailures).toEqual([]);
    expect(runs.filter((r) => r === 'expired')).toHaveLength(1);
  });

  it('takes over an INPROGRESS lock whose in-progress expiry has passed (a crashed run)', async () => {
    await seed('crashed', { status: { S: 'INPROGRESS' }, expires_at: seconds(3600), in_progress_expiration: millis(-1000) });
    expect((await deliver('crashed')).batchItemFailures).toEqual([]);
    expect(runs.filter((r) => r === 'crashed')).toHaveLength(1);
  });

  it('fails the record (for redelivery) while another run holds a live INPROGRESS lock', async () => {
    await seed('busy', { status: { S: 'INPROGRESS' }, expires_at: seconds(3600), in_progress_expiration: millis(60_000) });
    const response = await deliver('busy');
    expect(response.batchItemFailures).toHaveLength(1);
    expect(runs).not.toContain('busy');
  });

  it('lets exactly one of 20 concurrent deliveries of a new id run it', async () => {
    const engine = {
      runObservers: async (_type: string, payload: Record<string, unknown>) => {
        runs.push(String(payload.id));
        await new Promise((resolve) => setTimeout(resolve, 500)); // hold the lock while the others try
      },
    };
    // Separate consumers, as concurrent Lambda instances would be.
    const consumers = Array.from({ length: 20 }, () =>
      createObserverConsumer({ engine, table: plane.idempotency, payloads: plane.payloads, logger: createMemoryLogger() }),
    );
    const previous = consumer;
    const responses = await Promise.all(
      consumers.map((c) => {
        consumer = c;
        return deliver('raced');
      }),
    );
    consumer = previous;
    expect(runs.filter((r) => r === 'raced')).toHaveLength(1);
    // Those that tried while it ran fail (for redelivery); any that came after it finished got its stored result.
    expect(responses.filter((r) => r.batchItemFailures.length === 1).length).toBeGreaterThan(0);
  });

  it('keeps the payload validation hash Powertools writes, through the lock and the completion', async () => {
    const store = new SingleTableIdempotencyStore(plane.idempotency, SingleTableIdempotencyStore.KEY_PREFIX);
    const config = new IdempotencyConfig({ eventKeyJmesPath: 'id', payloadValidationJmesPath: 'body' });
    config.registerLambdaContext({ getRemainingTimeInMillis: () => 60_000 } as Context);
    const runOnce = makeIdempotent(async (event: { id: string; body: string }) => ({ echoed: event.body }), {
      persistenceStore: store,
      keyPrefix: SingleTableIdempotencyStore.KEY_PREFIX,
      config,
    });
    expect(await runOnce({ id: 'validated', body: 'first' })).toEqual({ echoed: 'first' });
    const { Item } = await plane.clients.dynamodb.send(
      new GetItemCommand({
        TableName: aws.tableName,
        Key: { PK: { S: keyOf('validated') }, SK: { S: 'IDEMPOTENCY' } },
        ConsistentRead: true,
      }),
    );
    expect(Item?.status?.S).toBe('COMPLETED');
    expect(Item?.validation?.S).toBe(createHash('md5').update(JSON.stringify('first')).digest('base64'));
    // The same key with another payload is refused by the stored hash, not answered from the record.
    await expect(runOnce({ id: 'validated', body: 'second' })).rejects.toThrow(IdempotencyValidationError);
    expect(await runOnce({ id: 'validated', body: 'first' })).toEqual({ echoed: 'first' });
  });

  it('treats an INPROGRESS record without an in-progress expiry as held until it expires', async () => {
    await seed('no-lapse', { status: { S: 'INPROGRESS' }, expires_at: seconds(3600) });
    expect((await deliver('no-lapse')).batchItemFailures).toHaveLength(1);
    expect(runs).not.toContain('no-lapse');
  });
});

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

  const batchOf = (ids: string[]) => ({ Records: ids.map((id) => envelopeRecord(id, TURN_TRACE_EVENT)) });

  it('a store refuses a second key prefix: each idempotent operation has a store of its own', async () => {
    const store = new SingleTableIdempotencyStore(plane.idempotency, SingleTableIdempotencyStore.KEY_PREFIX);
    const config = new IdempotencyConfig({});
    config.registerLambdaContext({ getRemainingTimeInMillis: () => 60_000 } as Context);
    const own = makeIdempotent(async (id: string) => ({ id }), { persistenceStore: store, config, dataIndexArgument: 0 });
    expect(await own(randomUUID())).toEqual({ id: expect.any(String) });
    const other = async () =>
      makeIdempotent(async (id: string) => ({ id }), {
        persistenceStore: store,
        config,
        keyPrefix: TELEMETRY_KEY_PREFIX,
        dataIndexArgument: 0,
      })(randomUUID());
    await expect(other()).rejects.toThrow(IdempotencyPrefixError);
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

    const keys = ids.flatMap((id) => [keyUnder(SingleTableIdempotencyStore.KEY_PREFIX, id), keyUnder(TELEMETRY_KEY_PREFIX, id)]);
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
