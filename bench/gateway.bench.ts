import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { Hono } from 'hono';
import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import { summarise, type Bench } from './harness.ts';
import { ackRate, listen, load, startWebhookGateway, telegramUpdate, WEBHOOK_HEADERS } from './support/webhook-rig.ts';

/**
 * Webhook acks per second of the real gateway (`POST /webhooks/telegram`: secret check,
 * zod normalisation, dedup conditional put, pre_gateway_dispatch through the engine,
 * authorisation, FIFO enqueue) against a bare Hono handler doing the same DynamoDB
 * conditional put + SQS FIFO send with raw SDK calls. Both on @hono/node-server over
 * loopback against the same emulators (in a child process), driven by the same bounded load loop (fetch,
 * fixed concurrency), in alternating rounds.
 */
const REQUESTS = Number(process.env.HOOKGATE_BENCH_REQUESTS ?? 600);
const CONCURRENCY = 16;
const ROUNDS = 3;

const bench: Bench = async () => {
  // Emulators in their own process: their CPU does not share the event loop being measured.
  const aws = await startEmulatorsProcess();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const gateway = await startWebhookGateway(plane);

  const bare = new Hono();
  bare.post('/hook', async (c) => {
    const update = (await c.req.json()) as { update_id: number; message: { chat: { id: number } } };
    const key = `telegram:${update.update_id}`;
    await plane.table.doc.send(
      new PutCommand({
        TableName: aws.tableName,
        Item: { PK: `DEDUP#${key}`, SK: 'DEDUP', expires_at: Math.floor(Date.now() / 1000) + 86_400 },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    await plane.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: aws.turnsQueueUrl,
        MessageBody: JSON.stringify(update),
        MessageGroupId: `telegram:${update.message.chat.id}`,
        MessageDeduplicationId: key,
      }),
    );
    return c.json({ ok: true });
  });
  const baseline = await listen(bare);

  const toBaseline = (i: number) =>
    fetch(`${baseline.url}/hook`, { method: 'POST', headers: WEBHOOK_HEADERS, body: telegramUpdate(i) });
  const toGateway = (i: number) =>
    fetch(`${gateway.url}/webhooks/telegram`, { method: 'POST', headers: WEBHOOK_HEADERS, body: telegramUpdate(i) });
  const shape = { requests: REQUESTS, concurrency: CONCURRENCY };

  try {
    await load(toBaseline, 10_000_000, shape); // warm-up, both paths
    await load(toGateway, 20_000_000, shape);
    const runs = { baseline: { wallMs: 0, latencies: [] as number[] }, gateway: { wallMs: 0, latencies: [] as number[] } };
    for (let round = 0; round < ROUNDS; round++) {
      const b = await load(toBaseline, 1_000_000 * (round + 1), shape);
      const g = await load(toGateway, 1_000_000 * (round + 1) + 500_000, shape);
      runs.baseline.wallMs += b.wallMs;
      runs.baseline.latencies.push(...b.latencies);
      runs.gateway.wallMs += g.wallMs;
      runs.gateway.latencies.push(...g.latencies);
    }
    const g = summarise(runs.gateway.latencies);
    const b = summarise(runs.baseline.latencies);
    return [
      {
        id: 'webhook-ack',
        name: 'gateway: telegram webhook acks (dedup put + pre_gateway_dispatch + FIFO send)',
        baseline: 'bare Hono handler, raw DynamoDB put + SQS send',
        unit: 'req/s',
        value: ackRate(runs.gateway),
        baselineValue: ackRate(runs.baseline),
        better: 'higher',
        goal: '>= 1.0',
        notes:
          `p99 ratio ${(g.p99 / b.p99).toFixed(2)}x (goal <= 1.2); concurrency ${CONCURRENCY}, ${ROUNDS}×${REQUESTS} requests each; engine: ${gateway.engineLabel}; ` +
          `gateway p50 ${g.p50.toFixed(2)} ms p99 ${g.p99.toFixed(2)} ms; baseline p50 ${b.p50.toFixed(2)} ms p99 ${b.p99.toFixed(2)} ms`,
      },
      {
        id: 'webhook-ack.p99',
        name: 'gateway: telegram webhook ack latency p99',
        baseline: 'bare Hono handler, raw DynamoDB put + SQS send',
        unit: 'ms',
        value: g.p99,
        baselineValue: b.p99,
        better: 'lower',
        goal: '<= 1.2',
      },
    ];
  } finally {
    await gateway.close();
    await baseline.close();
    plane.destroy();
    await aws.stop();
  }
};

export default bench;
