import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { toSqsRecord } from '../../src/local/sqs-event.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../src/pipeline/data-plane.ts';
import { createObserverConsumer, type ObserverHandler } from '../../src/runtime/observer-consumer.ts';
import { SingleTableIdempotencyStore } from '../../src/pipeline/idempotency-store.ts';
import { IdempotencyConfig, IdempotencyValidationError, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startTestAws } from '../support/local-aws.ts';

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

  const keyOf = (id: string) =>
    `${SingleTableIdempotencyStore.KEY_PREFIX}#${createHash('md5').update(JSON.stringify(id)).digest('base64')}`;
  const seed = (id: string, attributes: Record<string, { S: string } | { N: string }>) =>
    plane.clients.dynamodb.send(
      new PutItemCommand({ TableName: aws.tableName, Item: { PK: { S: keyOf(id) }, SK: { S: 'IDEMPOTENCY' }, ...attributes } }),
    );
  const deliver = (id: string) =>
    consumer({
      Records: [
        toSqsRecord(
          {
            MessageId: randomUUID(),
            ReceiptHandle: 'r',
            Body: JSON.stringify({
              v: 1,
              id,
              type: 'post_tool_call',
              occurred_at: new Date().toISOString(),
              session_id: null,
              turn_id: null,
              payload: { id },
            }),
          },
          'arn:aws:sqs:us-east-1:000000000000:hookgate-events',
          'us-east-1',
        ),
      ],
    });
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
    const store = new SingleTableIdempotencyStore(plane.idempotency);
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
