import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createTurnConsumer } from '../src/runtime/turn-consumer.ts';
import { loadDeploymentConfig } from '../src/config/deployment-config.ts';
import { createGatewayApp } from '../src/gateway/app.ts';
import { gatewayDepsFromDataPlane } from '../src/runtime/gateway-deps-from-data-plane.ts';
import { createHookEngine } from '../src/hooks/create-hook-engine.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { createHookgateLogger } from '../src/logging/hookgate-logger.ts';
import type { HookRunRecord } from '../src/hooks/hook-engine.ts';
import { StandInModel } from '../src/agent/model/stand-in-model.ts';
import type { ModelTransport } from '../src/agent/model/model-transport.ts';
import type { ChatCompletion } from '../src/agent/model/chat-wire.ts';
import { writeHookRunLine } from '../functions/support/hook-run-log.ts';
import { startEmulators } from '../src/local/emulators.ts';
import { startSqsPoller, type SqsEventHandler } from '../src/local/sqs-poller.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../src/pipeline/data-plane.ts';
import { createObserverConsumer } from '../src/runtime/observer-consumer.ts';
import { startFakePlatforms } from '../test/support/fake-platforms/fake-platform-server.ts';
import { until } from '../test/support/until.ts';
import { createTelemetryExport } from '../src/telemetry/telemetry-export.ts';
import { AwsRequestCounter, type OperationCount } from './support/aws-request-counter.ts';
import { startOtlpCounter, type OtlpSignalCount } from './support/otlp-counter.ts';

/** A remote model's answer time per call (ms) the bench waits by default: what a turn λ is billed for while it waits. */
export const DEFAULT_MODEL_LATENCY_MS = 2000;

export interface TurnCost {
  /** The fake model's answer time per call (ms), and the calls per counted turn. */
  modelLatencyMs: number;
  modelCallsPerTurn: number;
  /** Bytes the three functions logged per turn (their JSON lines, hook-run lines included; Lambda's own platform lines not). */
  logBytesPerTurn: Record<'gateway' | 'turn' | 'observer', number>;
  /** Turns counted (after one warm-up turn that opened the session). */
  turns: number;
  /** Observer events those turns published (and the observer λ ran). */
  events: number;
  /** Every AWS request, keyed `<function> <service> <Operation>`; `esm …` is Lambda's SQS poller. */
  requests: Record<string, OperationCount>;
  /** Handler wall time per invocation, ms (median), and invocations. */
  invocations: Record<'gateway' | 'turn' | 'observer', { count: number; p50Ms: number }>;
  /** With `otlp`: what the observer's OTLP export sent, in all (requests and body bytes per signal). */
  otlp?: { traces: OtlpSignalCount; metrics: OtlpSignalCount };
}

/**
 * Counts what a plain turn costs in AWS requests: a Telegram webhook → gateway → turns queue →
 * turn (stand-in model, `run: echo hi` → one terminal call with one approved `pre_tool_call`
 * shell hook) → reply, and the observer events the turn publishes → events queue → observer
 * consumer. Each function gets its own data plane (its own SDK clients, as three Lambda
 * functions would), each with an `AwsRequestCounter`; the local pollers play Lambda's event
 * source mappings on clients counted as `esm`. One warm-up turn opens the session first.
 * With `otlp`, the observer also exports spans and metrics (docs/telemetry.md) to a local
 * receiver that counts requests and bytes, flushing metrics after each batch as in AWS.
 *
 * @example
 * const cost = await countTurnRequests({ turns: 10 });
 * console.log(cost.requests['turn dynamodb PutItem']);
 */
export async function countTurnRequests(
  options: { turns?: number; modelLatencyMs?: number; otlp?: boolean } = {},
): Promise<TurnCost> {
  const turns = options.turns ?? 10;
  const modelLatencyMs = options.modelLatencyMs ?? DEFAULT_MODEL_LATENCY_MS;
  const model = new SlowModel(new StandInModel(), modelLatencyMs);
  const logs = new LogByteCounter();
  const aws = await startEmulators();
  const fake = await startFakePlatforms();
  const home = await mkdtemp(join(tmpdir(), 'hookgate-cost-'));
  const counter = new AwsRequestCounter();
  const planes: DataPlane[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const script = join(home, 'allow.sh');
    await writeFile(script, '#!/bin/sh\ncat > /dev/null\necho "{}"\n');
    await chmod(script, 0o755);
    await writeFile(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ${script}\n`);
    const env: NodeJS.ProcessEnv = {
      TELEGRAM_BOT_TOKEN: '42:cost',
      TELEGRAM_SECRET_TOKEN: 'cost-secret',
      TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
      HOOKGATE_LOG_LEVEL: 'error',
    };
    const config = loadDeploymentConfig(env, { runtime: 'local' });
    // The functions' own loggers at the deployed level, each line counted by service (and not printed).
    const loggers = {
      gateway: createHookgateLogger('hookgate-gateway', 'info'),
      turn: createHookgateLogger('hookgate-turn', 'info'),
      observer: createHookgateLogger('hookgate-observer', 'info'),
    };
    const onRun = (service: string) => (record: HookRunRecord) => writeHookRunLine(service, record);
    const plane = async (fn: 'gateway' | 'turn' | 'observer') => {
      const p = createDataPlane(dataPlaneFromLocalAws(aws));
      planes.push(p);
      counter.attach(p.clients.sqs, `${fn} sqs`);
      counter.attach(p.clients.dynamodb, `${fn} dynamodb`);
      counter.attach(p.idempotency.client, `${fn} dynamodb`);
      counter.attach(await p.clients.sns(), `${fn} sns`);
      counter.attach(await p.clients.s3(), `${fn} s3`);
      return p;
    };
    const [gatewayPlane, turnPlane, observerPlane] = [await plane('gateway'), await plane('turn'), await plane('observer')];
    // The deployed flow: the operator approves the hook into the stack's DynamoDB allowlist.
    await turnPlane.allowlist.record({
      event: 'pre_tool_call',
      command: script,
      approved_at: new Date().toISOString(),
      script_mtime_at_approval: null,
    });

    const times = { gateway: [] as number[], turn: [] as number[], observer: [] as number[] };
    const timed =
      (fn: 'turn' | 'observer', handler: SqsEventHandler): SqsEventHandler =>
      async (event) => {
        const t0 = performance.now();
        try {
          return await handler(event);
        } finally {
          times[fn].push(performance.now() - t0);
        }
      };

    const gatewayEngine = await createHookEngine({
      home,
      gatewayHooks: true,
      observerSink: gatewayPlane.observerSink,
      allowlist: gatewayPlane.allowlist,
      logger: loggers.gateway,
      onRun: onRun('hookgate-gateway'),
    });
    const gateway = createGatewayApp(
      gatewayDepsFromDataPlane({ config, engine: gatewayEngine, plane: gatewayPlane, logger: loggers.gateway }),
    );
    const turnEngine = await createHookEngine({
      home,
      gatewayHooks: false,
      observerSink: turnPlane.observerSink,
      allowlist: turnPlane.allowlist,
      logger: loggers.turn,
      onRun: onRun('hookgate-turn'),
    });
    const turnDeps = gatewayDepsFromDataPlane({ config, engine: turnEngine, plane: turnPlane, logger: loggers.turn });
    const turnHandler = createTurnConsumer({
      config,
      plane: turnPlane,
      engine: turnEngine,
      replier: turnDeps.replier,
      logger: loggers.turn,
      overrides: { transport: model },
    });
    const observerEngine = await createHookEngine({
      home,
      gatewayHooks: true,
      allowlist: observerPlane.allowlist,
      logger: loggers.observer,
      onRun: onRun('hookgate-observer'),
    });
    let events = 0;
    const otlp = options.otlp ? await startOtlpCounter() : undefined;
    if (otlp) stops.push(() => otlp.close());
    const telemetry = otlp
      ? await createTelemetryExport({
          otlp: { endpoint: otlp.url, headers: {}, protocol: 'http/protobuf' },
          emf: false,
          captureContent: () => false,
        })
      : undefined;
    if (telemetry) stops.push(() => telemetry.shutdown());
    const observerHandler = createObserverConsumer({
      engine: observerEngine,
      table: observerPlane.idempotency,
      payloads: observerPlane.payloads,
      logger: loggers.observer,
      ...(telemetry ? { telemetry } : {}),
    });
    stops.push(
      () => gatewayEngine.close(),
      () => turnEngine.close(),
      () => observerEngine.close(),
    );

    const esm = (name: string) => {
      const sqs = new SQSClient({ region: aws.region, credentials: aws.credentials, endpoint: aws.sqsEndpoint });
      counter.attach(sqs, `esm ${name} sqs`);
      stops.push(() => sqs.destroy());
      return sqs;
    };
    const pollers = await Promise.all([
      startSqsPoller({ sqs: esm('turns'), queueUrl: aws.turnsQueueUrl, handler: timed('turn', turnHandler), batchSize: 1 }),
      startSqsPoller({ sqs: esm('timers'), queueUrl: aws.timersQueueUrl, handler: timed('turn', turnHandler), batchSize: 10 }),
      startSqsPoller({
        sqs: esm('events'),
        queueUrl: aws.eventsQueueUrl,
        handler: timed('observer', (event) => {
          events += event.Records.length;
          return observerHandler(event);
        }),
        batchSize: 10,
        batchWindowMs: 1000,
      }),
    ]);
    stops.push(() => Promise.all(pollers.map((p) => p.stop())).then(() => undefined));

    let update = 1000;
    const replies = () => fake.received('/telegram').filter((r) => r.path.endsWith('/sendMessage')).length;
    const turn = async () => {
      const before = replies();
      const body = JSON.stringify({
        update_id: ++update,
        message: {
          message_id: update,
          from: { id: 7, is_bot: false, first_name: 'Ann' },
          chat: { id: 7, type: 'private' },
          text: 'run: echo hi',
        },
      });
      const t0 = performance.now();
      const res = await gateway.fetch(
        new Request('http://gateway/webhooks/telegram', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'cost-secret' },
        }),
      );
      times.gateway.push(performance.now() - t0);
      if (res.status >= 300) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
      await until(() => replies() > before, 'the reply', { timeoutMs: 60_000 });
    };
    const settle = async () => {
      let seen = -1;
      // Quiet: no new observer run for 3 s (the events poller gathers for up to 1 s).
      await until(
        async () => {
          const quiet = seen === events;
          seen = events;
          return quiet;
        },
        'the observer to drain',
        { timeoutMs: 120_000, everyMs: 3000 },
      );
    };

    logs.start();
    await turn(); // opens the session (session:start and friends)
    await settle();
    counter.reset();
    logs.reset();
    if (otlp) for (const signal of [otlp.traces, otlp.metrics]) Object.assign(signal, { posts: 0, bytes: 0 });
    model.calls = 0;
    events = 0;
    for (const list of Object.values(times)) list.length = 0;
    for (let i = 0; i < turns; i++) await turn();
    await settle();
    logs.stop();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    return {
      modelLatencyMs,
      modelCallsPerTurn: model.calls / turns,
      logBytesPerTurn: {
        gateway: logs.bytes('hookgate-gateway') / turns,
        turn: logs.bytes('hookgate-turn') / turns,
        observer: logs.bytes('hookgate-observer') / turns,
      },
      turns,
      events,
      requests: counter.snapshot(),
      invocations: {
        gateway: { count: times.gateway.length, p50Ms: median(times.gateway) },
        turn: { count: times.turn.length, p50Ms: median(times.turn) },
        observer: { count: times.observer.length, p50Ms: median(times.observer) },
      },
      ...(otlp ? { otlp: { traces: { ...otlp.traces }, metrics: { ...otlp.metrics } } } : {}),
    };
  } finally {
    logs.stop();
    for (const stop of stops.reverse()) await stop();
    for (const p of planes) p.destroy();
    await fake.close();
    await aws.stop();
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * us-east-1 on-demand list prices (USD), as published in Dec 2026: Lambda arm64, SQS,
 * SNS standard topics (deliveries to SQS are free), DynamoDB on-demand standard table
 * class, S3 Standard. docs/cost.md cites them.
 */
export const PRICES = {
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  sqsStandardRequest: 0.4 / 1e6,
  sqsFifoRequest: 0.5 / 1e6,
  snsPublishChunk: 0.5 / 1e6,
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  s3Put: 0.005 / 1000,
  s3Get: 0.0004 / 1000,
  kmsRequest: 0.03 / 10_000,
  secretsManagerCall: 0.05 / 10_000,
  secretsManagerSecretMonth: 0.4,
  logsIngestedGb: 0.5,
  alarmMonth: 0.1,
  dashboardMonth: 3,
} as const;

/**
 * Lambda's own lines per invocation in the JSON log format (`platform.start`, `platform.report`
 * and, with `platform.runtimeDone`, about this many bytes): not written by the code, so not
 * counted by the bench; an estimate from the record shapes the Lambda docs show.
 */
export const LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION = 900;

/**
 * SNS with the `alias/aws/sns` key reuses a data key for up to 5 minutes per publishing
 * principal and asks KMS twice per key (SNS developer guide, "Estimating AWS KMS costs"): a
 * turn after 5 quiet minutes costs up to this many KMS requests (gateway and turn λ both publish).
 */
export const KMS_REQUESTS_PER_ISOLATED_TURN = 2 * 2;

/** The stack's memory per function (infra/lib/hookgate-stack.ts), MB. */
export const MEMORY_MB = { gateway: 1024, turn: 1024, observer: 512 } as const;

/**
 * Dollars per 1,000 turns by line, from counted requests. Lambda's SQS pollers are priced as one
 * ReceiveMessage and one DeleteMessageBatch per invocation (the local poller's own pattern of
 * receives is not Lambda's; their idle long polls are a fixed monthly cost, see docs/cost.md);
 * Lambda time is the measured handler p50 at the stack's memory.
 */
export function pricePerThousandTurns(cost: TurnCost): Record<string, number> {
  const per = (x: number) => (x / cost.turns) * 1000;
  const lines: Record<string, number> = {};
  const add = (line: string, dollars: number) => (lines[line] = (lines[line] ?? 0) + dollars);
  for (const [fn, i] of Object.entries(cost.invocations) as [keyof typeof MEMORY_MB, { count: number; p50Ms: number }][]) {
    add(`Lambda ${fn} requests`, per(i.count) * PRICES.lambdaRequest);
    add(`Lambda ${fn} GB-s`, per(i.count) * (MEMORY_MB[fn] / 1024) * (Math.ceil(i.p50Ms) / 1000) * PRICES.lambdaGbSecond);
  }
  add('SQS turns (FIFO): poller receive + delete', per(cost.invocations.turn.count) * 2 * PRICES.sqsFifoRequest);
  const invocations = cost.invocations.gateway.count + cost.invocations.turn.count + cost.invocations.observer.count;
  for (const [fn, bytes] of Object.entries(cost.logBytesPerTurn))
    add(`CloudWatch Logs ${fn} lines`, (bytes * 1000 * PRICES.logsIngestedGb) / 1024 ** 3);
  add(
    'CloudWatch Logs Lambda platform lines (estimate)',
    (per(invocations) * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION * PRICES.logsIngestedGb) / 1024 ** 3,
  );
  add('SQS events: poller receive + delete', per(cost.invocations.observer.count) * 2 * PRICES.sqsStandardRequest);
  for (const [key, c] of Object.entries(cost.requests)) {
    const [fn, service, operation] = key.split(' ') as [string, string, string];
    if (fn === 'esm') continue;
    if (service === 'sqs') add(`SQS ${fn} ${operation}`, per(c.requests) * PRICES.sqsFifoRequest); // the senders' queues (turns, timers) are FIFO
    if (service === 'sns') add(`SNS ${fn} ${operation}`, per(c.billedChunks) * PRICES.snsPublishChunk);
    if (service === 'dynamodb') {
      add(`DynamoDB ${fn} ${operation}`, per(c.writeUnits) * PRICES.dynamoWriteUnit + per(c.readUnits) * PRICES.dynamoReadUnit);
    }
    if (service === 's3')
      add(`S3 ${fn} ${operation}`, per(c.requests) * (operation === 'PutObject' ? PRICES.s3Put : PRICES.s3Get));
  }
  return Object.fromEntries(Object.entries(lines).sort(([, a], [, b]) => b - a));
}

/**
 * Dollars per 1,000 turns that arrive each after 5 quiet minutes: KMS's data keys for the
 * events topic are asked for again each time (busy traffic shares them, see docs/cost.md).
 */
export function kmsPerThousandIsolatedTurns(): number {
  return 1000 * KMS_REQUESTS_PER_ISOLATED_TURN * PRICES.kmsRequest;
}

/**
 * The default stack's alarms: 4 DLQs, 3 queue ages, errors, throttles and duration of 4 functions, the
 * Function URL's 5xx, undelivered replies and stray hook errors (test/infra/stack.test.ts counts them).
 */
export const DEFAULT_STACK_ALARMS = 22;

/**
 * What the stack costs in a month with no turn at all, from its resources: alarms, the
 * dashboard, the secret, Lambda's idle SQS long polls, and KMS for nothing (no publish, no
 * data key). `alarms`: the alarm count of the synthesised stack.
 */
export function idleMonth(alarms: number): Record<string, number> {
  // Lambda runs several pollers per SQS event source, each waiting up to 20 s per ReceiveMessage.
  const pollersPerSource = 5;
  const pollRequests = 3 * pollersPerSource * 3 * 60 * 24 * 30;
  return {
    [`CloudWatch alarms (${alarms} × $0.10)`]: alarms * PRICES.alarmMonth,
    'CloudWatch dashboard (1; the first 3 of an account are free)': PRICES.dashboardMonth,
    'Secrets Manager secrets (gateway, reply)': 2 * PRICES.secretsManagerSecretMonth,
    "SQS: Lambda's idle long polls on turns (FIFO), timers and events":
      pollRequests * ((PRICES.sqsFifoRequest + 2 * PRICES.sqsStandardRequest) / 3),
  };
}

/** A model that answers as the stand-in does, after `latencyMs`: the wait a deployed turn λ is billed for. */
class SlowModel implements ModelTransport {
  calls = 0;
  readonly model: string;
  readonly provider: string;
  readonly baseUrl: string;
  readonly apiMode = 'chat_completions' as const;
  constructor(
    private readonly inner: ModelTransport,
    private readonly latencyMs: number,
  ) {
    this.model = inner.model;
    this.provider = inner.provider;
    this.baseUrl = inner.baseUrl;
  }
  async send(...args: Parameters<ModelTransport['send']>): Promise<ChatCompletion> {
    this.calls += 1;
    await delay(this.latencyMs, undefined, args[1] ? { signal: args[1] } : {});
    return this.inner.send(...args);
  }
}

/** Counts the bytes each service writes to stdout (a JSON line each, as Lambda ingests them) and swallows them. */
class LogByteCounter {
  private readonly counts = new Map<string, number>();
  private original: typeof process.stdout.write | undefined;
  start(): void {
    if (this.original) return;
    const original = process.stdout.write.bind(process.stdout);
    this.original = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const service = /"service":"([^"]+)"/.exec(text)?.[1];
      if (!service) return original(chunk, ...(rest as []));
      this.counts.set(service, (this.counts.get(service) ?? 0) + Buffer.byteLength(text));
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof process.stdout.write;
  }
  reset(): void {
    this.counts.clear();
  }
  bytes(service: string): number {
    return this.counts.get(service) ?? 0;
  }
  stop(): void {
    if (this.original) process.stdout.write = this.original;
    this.original = undefined;
  }
}

// `npx tsx bench/cost.ts [turns] [--model-latency-ms=2000] [--otlp] [--json]`: requests per turn by function and operation.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const latency = process.argv.find((a) => a.startsWith('--model-latency-ms='))?.split('=')[1];
  const cost = await countTurnRequests({
    turns: Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10),
    modelLatencyMs: latency === undefined ? DEFAULT_MODEL_LATENCY_MS : Number(latency),
    otlp: process.argv.includes('--otlp'),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(cost, null, 2));
  else {
    console.log(`${cost.turns} turns, ${cost.events} observer events (${(cost.events / cost.turns).toFixed(2)} per turn)`);
    for (const [key, c] of Object.entries(cost.requests)) {
      const per = (x: number) => (x / cost.turns).toFixed(2);
      console.log(
        `${key.padEnd(36)} ${per(c.requests)} req/turn` +
          (c.writeUnits ? `, ${per(c.writeUnits)} WRU` : '') +
          (c.readUnits ? `, ${per(c.readUnits)} RRU` : '') +
          (c.billedChunks ? `, ${per(c.billedChunks)} billed` : '') +
          (c.empty ? ` (${per(c.empty)} empty)` : '') +
          (c.failedConditions ? ` (${per(c.failedConditions)} refused)` : ''),
      );
    }
    for (const [fn, i] of Object.entries(cost.invocations))
      console.log(`${fn}: ${i.count} invocations, p50 ${i.p50Ms.toFixed(1)} ms`);
    console.log(`model: ${cost.modelCallsPerTurn.toFixed(2)} calls per turn, each answered after ${cost.modelLatencyMs} ms`);
    for (const [fn, bytes] of Object.entries(cost.logBytesPerTurn)) console.log(`log bytes per turn, ${fn}: ${bytes.toFixed(0)}`);
    if (cost.otlp) {
      for (const [signal, c] of Object.entries(cost.otlp))
        console.log(
          `OTLP ${signal}: ${(c.posts / cost.turns).toFixed(2)} POSTs, ${(c.bytes / cost.turns).toFixed(0)} bytes per turn`,
        );
    }
    const lines = pricePerThousandTurns(cost);
    console.log(
      `USD per 1,000 turns: ${Object.values(lines)
        .reduce((a, b) => a + b, 0)
        .toFixed(5)}`,
    );
    for (const [line, dollars] of Object.entries(lines)) console.log(`  ${line.padEnd(44)} ${dollars.toFixed(6)}`);
    console.log(
      `KMS per 1,000 turns each after 5 quiet minutes (busy traffic shares data keys): ${kmsPerThousandIsolatedTurns().toFixed(5)}`,
    );
    const idle = idleMonth(Number(process.argv.find((x) => x.startsWith('--alarms='))?.split('=')[1] ?? DEFAULT_STACK_ALARMS));
    console.log(
      `USD for an idle month: ${Object.values(idle)
        .reduce((a, b) => a + b, 0)
        .toFixed(2)}`,
    );
    for (const [line, dollars] of Object.entries(idle)) console.log(`  ${line.padEnd(60)} ${dollars.toFixed(2)}`);
  }
}
