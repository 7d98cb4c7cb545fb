import type { AddressInfo } from 'node:net';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { serve, type ServerType } from '@hono/node-server';
import { Logger } from '@aws-lambda-powertools/logger';
import { Hono } from 'hono';
import { loadDeploymentConfig } from '../src/config/deployment-config.ts';
import { createGatewayApp } from '../src/gateway/app.ts';
import { gatewayDepsFromDataPlane } from '../src/runtime/gateway-deps-from-data-plane.ts';
import { startEmulatorsProcess } from '../test/support/emulators-process.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../src/pipeline/data-plane.ts';
import { benchEngine } from './support/bench-engine.ts';
import { summarise, type Bench } from './harness.ts';

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
const SECRET = 'bench-secret';

function listen(app: Hono): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve({ server, url: `http://127.0.0.1:${info.port}` }),
    );
  });
}

/** Sends `REQUESTS` requests with `CONCURRENCY` in flight; per-request latencies in ms and the wall time. */
async function load(send: (i: number) => Promise<Response>, offset: number): Promise<{ wallMs: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = offset + next++;
      const t0 = performance.now();
      const res = await send(i);
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`request ${i}: HTTP ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { wallMs: performance.now() - t0, latencies };
}

const bench: Bench = async () => {
  // Emulators in their own process: their CPU does not share the event loop being measured.
  const aws = await startEmulatorsProcess();
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const config = loadDeploymentConfig({ TELEGRAM_BOT_TOKEN: '1:bench', TELEGRAM_SECRET_TOKEN: SECRET }, { runtime: 'local' });
  const engine = await benchEngine(plane.observerSink);
  const logger = new Logger({ serviceName: 'bench', logLevel: 'WARN' });
  const gateway = await listen(createGatewayApp(gatewayDepsFromDataPlane({ config, engine: engine.engine, plane, logger })));

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

  const body = (i: number) =>
    JSON.stringify({ update_id: i, message: { message_id: i, from: { id: 7, is_bot: false, first_name: 'B' }, chat: { id: i % 50, type: 'private' }, text: `hello ${i}` } });
  const headers = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET };
  const toBaseline = (i: number) => fetch(`${baseline.url}/hook`, { method: 'POST', headers, body: body(i) });
  const toGateway = (i: number) => fetch(`${gateway.url}/webhooks/telegram`, { method: 'POST', headers, body: body(i) });

  try {
    await load(toBaseline, 10_000_000); // warm-up, both paths
    await load(toGateway, 20_000_000);
    const runs = { baseline: { wallMs: 0, latencies: [] as number[] }, gateway: { wallMs: 0, latencies: [] as number[] } };
    for (let round = 0; round < ROUNDS; round++) {
      const b = await load(toBaseline, 1_000_000 * (round + 1));
      const g = await load(toGateway, 1_000_000 * (round + 1) + 500_000);
      runs.baseline.wallMs += b.wallMs;
      runs.baseline.latencies.push(...b.latencies);
      runs.gateway.wallMs += g.wallMs;
      runs.gateway.latencies.push(...g.latencies);
    }
    const rate = (r: { wallMs: number; latencies: number[] }) => (r.latencies.length / r.wallMs) * 1000;
    const g = summarise(runs.gateway.latencies);
    const b = summarise(runs.baseline.latencies);
    return [
      {
        id: 'webhook-ack',
        name: 'gateway: telegram webhook acks (dedup put + pre_gateway_dispatch + FIFO send)',
        baseline: 'bare Hono handler, raw DynamoDB put + SQS send',
        unit: 'req/s',
        value: rate(runs.gateway),
        baselineValue: rate(runs.baseline),
        better: 'higher',
        goal: '>= 0.9',
        notes:
          `p99 ratio ${(g.p99 / b.p99).toFixed(2)}x (goal <= 1.2); concurrency ${CONCURRENCY}, ${ROUNDS}×${REQUESTS} requests each; engine: ${engine.label}; ` +
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
    await new Promise<void>((r) => gateway.server.close(() => r()));
    await new Promise<void>((r) => baseline.server.close(() => r()));
    await engine.engine.close();
    plane.destroy();
    await aws.stop();
  }
};

export default bench;
