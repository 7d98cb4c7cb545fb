import type { AddressInfo } from 'node:net';
import { Logger } from '@aws-lambda-powertools/logger';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createGatewayApp } from '../../src/gateway/app.ts';
import { gatewayDepsFromDataPlane } from '../../src/runtime/gateway-deps-from-data-plane.ts';
import type { DataPlane } from '../../src/pipeline/data-plane.ts';
import { benchEngine } from './bench-engine.ts';

/** The webhook secret the rig's gateway expects. */
export const WEBHOOK_SECRET = 'bench-secret';

/** Headers of a Telegram webhook POST the rig's gateway accepts. */
export const WEBHOOK_HEADERS = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET };

/** A Telegram update numbered `i` (50 chats in turn). */
export const telegramUpdate = (i: number) =>
  JSON.stringify({
    update_id: i,
    message: {
      message_id: i,
      from: { id: 7, is_bot: false, first_name: 'B' },
      chat: { id: i % 50, type: 'private' },
      text: `hello ${i}`,
    },
  });

/** Serves `app` on a loopback port of its own. */
export function listen(app: Hono): Promise<{ server: ServerType; url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve({ server, url: `http://127.0.0.1:${info.port}`, close: () => new Promise<void>((r) => server.close(() => r())) }),
    );
  });
}

/** Sends `requests` requests with `concurrency` in flight; per-request latencies in ms and the wall time. */
export async function load(
  send: (i: number) => Promise<Response>,
  offset: number,
  { requests, concurrency }: { requests: number; concurrency: number },
): Promise<{ wallMs: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      const i = offset + next++;
      const t0 = performance.now();
      const res = await send(i);
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`request ${i}: HTTP ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { wallMs: performance.now() - t0, latencies };
}

/** Acks per second of a `load` result. */
export const ackRate = (r: { wallMs: number; latencies: number[] }) => (r.latencies.length / r.wallMs) * 1000;

/**
 * The webhook benches' gateway: the real gateway app (`POST /webhooks/telegram`: secret check,
 * zod normalisation, dedup conditional put, pre_gateway_dispatch through the engine,
 * authorisation, FIFO enqueue) on `plane`, with the real engine over an empty hooks home, on
 * @hono/node-server over loopback.
 *
 * @example
 * const gateway = await startWebhookGateway(plane);
 * await fetch(`${gateway.url}/webhooks/telegram`, { method: 'POST', headers: WEBHOOK_HEADERS, body: telegramUpdate(1) });
 * await gateway.close();
 */
export async function startWebhookGateway(
  plane: DataPlane,
  env: NodeJS.ProcessEnv = {},
): Promise<{ url: string; engineLabel: string; close(): Promise<void> }> {
  const config = loadDeploymentConfig(
    { TELEGRAM_BOT_TOKEN: '1:bench', TELEGRAM_SECRET_TOKEN: WEBHOOK_SECRET, ...env },
    { runtime: 'local' },
  );
  const engine = await benchEngine(plane.observerSink);
  const logger = new Logger({ serviceName: 'bench', logLevel: 'WARN' });
  const gateway = await listen(createGatewayApp(gatewayDepsFromDataPlane({ config, engine: engine.engine, plane, logger })));
  return {
    url: gateway.url,
    engineLabel: engine.label,
    async close() {
      await gateway.close();
      await engine.engine.close();
    },
  };
}
