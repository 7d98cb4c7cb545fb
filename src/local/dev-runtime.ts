import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Logger } from '@aws-lambda-powertools/logger';
import { enabledPlatforms, loadGatewayConfig, type GatewayConfig } from '../config/gateway-config.ts';
import { createGatewayApp } from '../gateway/app.ts';
import { gatewayDepsFromDataPlane } from '../gateway/gateway-deps-from-data-plane.ts';
import { createGatewayLogger } from '../gateway/gateway-logger.ts';
import { announceGatewayStartup } from '../gateway/gateway-startup.ts';
import type { Replier } from '../gateway/replier.ts';
import type { HookEngine, HookEngineOptions } from '../hooks/hook-engine.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../pipeline/data-plane.ts';
import { createObserverConsumer } from '../pipeline/observer-consumer.ts';
import { RESOURCE_ENV } from '../pipeline/resource-env.ts';
import { removeDevEndpoints, writeDevEndpoints } from './dev-endpoints.ts';
import { ConsoleHub } from '../console/console-hub.ts';
import { mountDevConsole } from '../console/mount-dev-console.ts';
import { startEmulators, type RunningEmulators } from './emulators.ts';
import { prepareDevState, type DevStateOptions } from './dev-state.ts';
import { DevTurnJournal } from './turn-journal.ts';
import { startSqsPoller, type SqsEventHandler, type SqsPoller } from './sqs-poller.ts';

/** What a turn consumer is built from (the turn runtime's `createTurnHandler`). */
export interface TurnConsumerContext {
  config: GatewayConfig;
  plane: DataPlane;
  engine: HookEngine;
  replier: Replier;
  logger: Logger;
}

export interface DevRuntimeOptions {
  /** The hooks home. */
  home: string;
  /** 0 = any free port. Default 8787. */
  port?: number;
  acceptHooks?: boolean;
  /** Platform secrets, model and allowed users (default: process.env). */
  env?: NodeJS.ProcessEnv;
  createEngine: (options: HookEngineOptions) => Promise<HookEngine> | HookEngine;
  /** Consumer of the turns and timers queues; without it, turns stay queued. */
  createTurnConsumer?: (context: TurnConsumerContext) => SqsEventHandler | Promise<SqsEventHandler>;
  /** Lines for the person at the terminal. */
  print?: (line: string) => void;
  /** Keep the table (and the turn journal) under this folder across restarts; default: all in memory. */
  state?: DevStateOptions;
  /** Serve the console at `/console` (default true). */
  console?: boolean;
}

export interface DevRuntime {
  url: string;
  config: GatewayConfig;
  aws: RunningEmulators;
  /** The `/v1` bearer token (generated when HOOKGATE_API_TOKEN is unset). */
  apiToken: string;
  stop(): Promise<void>;
}

/**
 * The composition root of `hookgate dev`: emulators, data plane, hook engine (gateway
 * hooks on, observer events through SNS), the gateway on 127.0.0.1, the observer consumer
 * and the turn consumer through the local SQS poller, the dev endpoints file, and
 * `gateway:startup`. `stop()` undoes all of it, in reverse.
 *
 * @example
 * const dev = await startDevRuntime({ home, port: 0, createEngine: createHookEngine });
 * await fetch(`${dev.url}/webhooks/local`, { method: 'POST', body: '{"chat_id":"c","user_id":"u","text":"hi"}' });
 * await dev.stop();
 */
export async function startDevRuntime(options: DevRuntimeOptions): Promise<DevRuntime> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const baseEnv = options.env ?? process.env;
  const cleanup: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const step of cleanup.reverse()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`hookgate dev: while stopping: ${String(error)}\n`);
      }
    }
    cleanup.length = 0;
  };

  try {
    // Fail fast, before anything starts, on a malformed variable (the error names it).
    loadGatewayConfig(baseEnv, { runtime: 'local' });
    const state = options.state ? await prepareDevState(options.state) : undefined;
    if (state) cleanup.push(() => state.release());
    const aws = await startEmulators(state ? { dynamodbPath: state.dynamodbPath } : {});
    cleanup.push(() => aws.stop());
    const generatedToken = baseEnv.HOOKGATE_API_TOKEN ? undefined : randomBytes(24).toString('hex');
    const env: NodeJS.ProcessEnv = {
      ...baseEnv,
      ...(generatedToken ? { HOOKGATE_API_TOKEN: generatedToken } : {}),
      [RESOURCE_ENV.tableName]: aws.tableName,
      [RESOURCE_ENV.turnsQueueUrl]: aws.turnsQueueUrl,
      [RESOURCE_ENV.timersQueueUrl]: aws.timersQueueUrl,
      [RESOURCE_ENV.eventsTopicArn]: aws.eventsTopicArn,
      [RESOURCE_ENV.payloadBucket]: aws.payloadBucket,
    };
    const config = loadGatewayConfig(env, { runtime: 'local' });
    const logger = createGatewayLogger(env, 'hookgate-dev');
    const plane = createDataPlane(dataPlaneFromLocalAws(aws));
    cleanup.push(() => plane.destroy());

    const hub = options.console === false ? undefined : new ConsoleHub();
    const engine = await options.createEngine({
      home: options.home,
      acceptHooks: options.acceptHooks ?? false,
      gatewayHooks: true,
      observerSink: hub ? hub.watchSink(plane.observerSink) : plane.observerSink,
    });
    cleanup.push(() => engine.close());

    const deps = gatewayDepsFromDataPlane({ config, engine, plane, logger });
    if (hub) deps.replier = hub.watchReplier(deps.replier);
    const journal = state ? new DevTurnJournal(plane.table, deps.turnQueue) : undefined;
    if (journal) deps.turnQueue = journal;
    const app = createGatewayApp(deps);
    if (hub) mountDevConsole(app, { hub, plane, aws, home: options.home, ...(state ? { state: state.dir } : {}) });
    const server = await listen(app.fetch, options.port ?? 8787);
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const pollerError = (queue: string) => (error: unknown) => logger.error(`local ${queue} poller`, { error: String(error) });
    const observer = await startSqsPoller({
      sqs: plane.clients.sqs,
      queueUrl: aws.eventsQueueUrl,
      handler: createObserverConsumer({ engine, table: plane.idempotency, payloads: plane.payloads }),
      batchSize: 10,
      batchWindowMs: 50,
      onError: pollerError('events'),
    });
    cleanup.push(() => observer.stop());
    if (options.createTurnConsumer) {
      const consumer = await options.createTurnConsumer({ config, plane, engine, replier: deps.replier, logger });
      const settled = journal ? journal.settling(consumer) : consumer;
      const handler = hub ? hub.watchTurns(settled) : settled;
      const pollers: SqsPoller[] = await Promise.all([
        startSqsPoller({ sqs: plane.clients.sqs, queueUrl: aws.turnsQueueUrl, handler, batchSize: 1, concurrency: 2, onError: pollerError('turns') }),
        startSqsPoller({ sqs: plane.clients.sqs, queueUrl: aws.timersQueueUrl, handler, batchSize: 10, onError: pollerError('timers') }),
      ]);
      cleanup.push(() => Promise.all(pollers.map((p) => p.stop())).then(() => undefined));
    }

    await writeDevEndpoints(options.home, { ...stripStop(aws), gatewayUrl: url, pid: process.pid });
    cleanup.push(() => removeDevEndpoints(options.home));
    await announceGatewayStartup(deps, { once: false });
    const redriven = journal ? await journal.redrive() : 0;

    print(`hookgate dev: serving ${url}`);
    print(`  hooks home: ${options.home}`);
    print(state ? `  state: ${state.dir} (kept across restarts; --fresh to start empty${redriven ? `; ${redriven} unanswered turn(s) re-queued` : ''})` : '  state: in memory (lost when dev stops)');
    if (hub) print(`  console: ${url}/console`);
    print(`  platforms: ${enabledPlatforms(config).join(', ')}  (POST ${url}/webhooks/<platform>)`);
    for (const { platform, missing } of config.disabled) print(`  ${platform} is off: set ${missing.join(', ')}`);
    print(`  local chat: POST ${url}/webhooks/local {"chat_id","user_id","text"}; replies: GET ${url}/webhooks/local/messages?chat_id=…`);
    print(`  hook API: ${url}/v1/hooks/<hook>, ${url}/v1/events  (Authorization: Bearer ${generatedToken ? `${generatedToken}, generated; set HOOKGATE_API_TOKEN to choose one` : '$HOOKGATE_API_TOKEN'})`);
    if (!config.model.baseUrl) print('  model: the built-in local stand-in model (set HOOKGATE_MODEL_BASE_URL for a real one)');
    if (!options.createTurnConsumer) print('  turns: no turn runtime wired; messages stay on the turns queue');

    return { url, config, aws, apiToken: env.HOOKGATE_API_TOKEN!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function stripStop({ stop: _stop, ...aws }: RunningEmulators) {
  return aws;
}

/** Serves on 127.0.0.1 only; a port in use is a clear error, not a crash. */
function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port }, () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on 127.0.0.1 is in use; pass --port <another>`) : error),
    );
  });
}
