import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Logger } from '@aws-lambda-powertools/logger';
import { TurnsInFlight } from '../agent/turn/turns-in-flight.ts';
import { enabledPlatforms, loadDeploymentConfig, type DeploymentConfig } from '../config/deployment-config.ts';
import { createGatewayApp } from '../gateway/app.ts';
import { announceGatewayStartup } from '../gateway/gateway-startup.ts';
import { redactingReplier } from '../messaging/redacting-replier.ts';
import type { Replier } from '../messaging/replier.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { dataPlaneFromLocalAws, type DataPlane } from '../pipeline/data-plane.ts';
import { createRuntime, type EngineFactory } from '../runtime/create-runtime.ts';
import { gatewayDepsOf } from '../runtime/gateway-function.ts';
import { createObserverFunction, createObserverTelemetry } from '../runtime/observer-function.ts';
import { createHookgateLogger } from '../logging/hookgate-logger.ts';
import { turnReplierOf } from '../runtime/turn-function.ts';
import { removeDevEndpoints, writeDevEndpoints } from './dev-endpoints.ts';
import { ConsoleHub } from '../console/console-hub.ts';
import { mountDevConsole } from '../console/mount-dev-console.ts';
import { ConsoleData } from '../console/console-data.ts';
import { loadedHooksLines, toolSandboxLines } from './dev-banner.ts';
import { startEmulators, type RunningEmulators } from './emulators.ts';
import { prepareDevState, type DevStateOptions } from './dev-state.ts';
import { DevTurnJournal } from './turn-journal.ts';
import { startDevHotReload } from './dev-hot-reload.ts';
import { EngineHolder } from './engine-holder.ts';
import { enginePluginLoads } from './engine-plugin-loads.ts';
import { hooksHomeDigest } from './hooks-home-files.ts';
import type { HotReload } from './hot-reload.ts';
import { turnConsumerPerEngine } from './turn-consumer-per-engine.ts';
import { startOutboxSweepTimer } from './outbox-sweep-timer.ts';
import { startSqsPoller, type SqsEventHandler, type SqsPoller } from './sqs-poller.ts';
import { DevStartError } from './dev-start-error.ts';

/** What a turn consumer is built from (the turn runtime's `createTurnHandler`). */
export interface TurnConsumerContext {
  config: DeploymentConfig;
  plane: DataPlane;
  engine: HookEngine;
  replier: Replier;
  logger: Logger;
  /** The turns running in this process: the turn runtime notes them; `/healthz` reports the stuck ones, shutdown finalizes their sessions. */
  turnsInFlight: TurnsInFlight;
  /** Aborted when `hookgate dev` stops: running turns wrap up instead of calling the model again. */
  signal: AbortSignal;
  /** The chat's tools run on this machine, in the configured sandbox (hook-semantics §5.9). */
  toolHost: 'local';
  /** Hidden from the tool sandbox besides the hooks home and the repository: the state folder. */
  hiddenFromTools: readonly string[];
}

export interface DevRuntimeOptions {
  /** The hooks home. */
  home: string;
  /** 0 = any free port. Default 8787. */
  port?: number;
  acceptHooks?: boolean;
  /** Platform secrets, model and allowed users (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Builds the one engine of the gateway, observer and turn parts (options: the runtime's `local` role). */
  createEngine: EngineFactory;
  /** Consumer of the turns and timers queues; without it, turns stay queued. */
  createTurnConsumer?: (context: TurnConsumerContext) => SqsEventHandler | Promise<SqsEventHandler>;
  /** Lines for the person at the terminal. */
  print?: (text: string) => void;
  /** Keep the table (and the turn journal) under this folder across restarts; default: all in memory. */
  state?: DevStateOptions;
  /** Serve the console at `/console` (default true). */
  console?: boolean;
  /**
   * Hot reload: watch the hooks home and swap in a new engine when plugins, gateway hooks,
   * config.yaml or the allowlist change (default false here; `hookgate dev` turns it on).
   */
  watch?: boolean;
  /** `--allow-invalid-config`: a reload with an invalid config.yaml/plugin.yaml/HOOK.yaml goes ahead. */
  allowInvalidConfig?: boolean;
  /**
   * A DynamoDB that is already running (DynamoDB Local, a dynalite process of its own) to
   * use instead of the embedded dynalite; the table is created there when absent. The fault
   * suite stops and restarts it under a running dev (docs/reliability.md, case 4).
   */
  dynamodbEndpoint?: string;
  /**
   * An SQS/SNS/S3 endpoint that is already running (a fauxqs of its own) to use instead of
   * the embedded fauxqs. The fault suite cuts the connections to it under a running dev
   * (docs/reliability.md, case 4).
   */
  sqsEndpoint?: string;
  /** `--otlp URL`: the OTLP/HTTP endpoint traces and metrics go to (wins over HOOKGATE_OTLP_ENDPOINT). */
  otlpEndpoint?: string;
  /** How often the outbox sweeper looks for events SNS did not take (default 2 s; docs/reliability.md). */
  outboxSweepMs?: number;
}

export interface DevRuntime {
  url: string;
  config: DeploymentConfig;
  aws: RunningEmulators;
  /** The `/v1` bearer token (generated when HOOKGATE_API_TOKEN is unset). */
  apiToken: string;
  /** The hot reload, when `watch` is on: its outcomes (tests wait on `next()`). */
  hotReload?: HotReload;
  /**
   * Stops everything, in reverse order of start, within about 4 s whatever hooks do: first
   * `on_session_finalize` (platform `gateway`, reason `shutdown`) once per session with a
   * turn in flight (hook-semantics §1.13.1), then each part, none waited for past its budget.
   */
  stop(): Promise<void>;
}

/** How long shutdown waits for all `on_session_finalize` calls together. */
const FINALIZE_BUDGET_MS = 1_500;
/** How long shutdown waits for the pollers (their long poll is 1 s; a turn may hang in a hook). */
const POLLERS_BUDGET_MS = 1_200;
/** How often the dev outbox sweeper looks for events SNS did not take. */
const DEV_OUTBOX_SWEEP_MS = 2_000;
/** How often the dev observer pushes OTLP metrics. */
const DEV_METRICS_INTERVAL_MS = 5_000;
/** How long shutdown waits for each other part (server, engine, emulators…). */
const STEP_BUDGET_MS = 300;

/**
 * `hookgate dev`: emulators, then the deployment's composition (`createRuntime`) over them —
 * data plane, one hook engine (the `local` role: gateway hooks on, observer events through
 * SNS) — the gateway on 127.0.0.1, the observer consumer
 * and the turn consumer through the local SQS poller, the dev endpoints file, and
 * `gateway:startup`. `stop()` undoes all of it, in reverse.
 *
 * @example
 * const dev = await startDevRuntime({ home, port: 0, createEngine: createHookEngine });
 * await fetch(`${dev.url}/webhooks/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"chat_id":"c","user_id":"u","text":"hi"}' });
 * await dev.stop();
 */
export async function startDevRuntime(options: DevRuntimeOptions): Promise<DevRuntime> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const baseEnv = options.env ?? process.env;
  /** Undo steps, run in reverse; each waited for at most `budgetMs` (default STEP_BUDGET_MS). */
  const cleanup: { name: string; run: () => Promise<void> | void; budgetMs?: number }[] = [];
  const shutdown = new AbortController();
  const turnsInFlight = new TurnsInFlight();
  const stop = async () => {
    shutdown.abort();
    for (const step of cleanup.reverse()) {
      try {
        const done = await withinBudget(Promise.resolve().then(step.run), step.budgetMs ?? STEP_BUDGET_MS);
        if (!done) process.stderr.write(`hookgate dev: while stopping: ${step.name} did not stop in time; going on\n`);
      } catch (error) {
        process.stderr.write(`hookgate dev: while stopping: ${String(error)}\n`);
      }
    }
    cleanup.length = 0;
  };

  try {
    // The environment, parsed once: a malformed variable fails here, before anything starts (the error names it).
    const parsed = loadDeploymentConfig(
      options.otlpEndpoint !== undefined ? { ...baseEnv, HOOKGATE_OTLP_ENDPOINT: options.otlpEndpoint } : baseEnv,
      { runtime: 'local' },
    );
    const state = options.state ? await prepareDevState(options.state) : undefined;
    if (state) cleanup.push({ name: 'the state folder', run: () => state.release() });
    const aws = await startEmulators({
      ...(options.dynamodbEndpoint ? { dynamodbEndpoint: options.dynamodbEndpoint } : state ? { dynamodbPath: state.dynamodbPath } : {}),
      ...(options.sqsEndpoint ? { sqsEndpoint: options.sqsEndpoint } : {}),
    });
    cleanup.push({ name: 'the emulators', run: () => aws.stop() });
    const generatedToken = parsed.apiToken ? undefined : randomBytes(24).toString('hex');
    // What differs from a deployment, explicitly: the emulators' resources, a generated /v1 token, one dev logger.
    const config: DeploymentConfig = {
      ...parsed,
      ...(generatedToken ? { apiToken: generatedToken } : {}),
      resources: { ...parsed.resources, ...dataPlaneFromLocalAws(aws) },
    };
    const runtime = createRuntime(config, {
      createEngine: options.createEngine,
      // The banner and the guard-off lines show each shell hook that is not allowlisted.
      engineOptions: { home: options.home, acceptHooks: options.acceptHooks ?? false, skippedShellHooksShown: true },
      logger: createHookgateLogger('hookgate-dev', config.logLevel),
    });
    const { plane } = runtime;
    const logger = runtime.logger('local');
    cleanup.push({ name: 'the SDK clients', run: () => plane.destroy() });

    const hub = options.console === false ? undefined : new ConsoleHub();
    const engineOptions = {
      ...runtime.engineOptions('local'),
      observerSink: hub ? hub.watchSink(plane.observerSink) : plane.observerSink,
    };
    // Taken before the engine is built: a change made while it loads is reloaded.
    const baseline = options.watch ? await hooksHomeDigest(options.home) : undefined;
    // The gateway and both consumers hold this; a hot reload swaps the engine inside it.
    const engine = new EngineHolder(await options.createEngine(engineOptions));
    cleanup.push({ name: 'the hook engine', run: () => engine.close() });

    // Turns run in this process: /healthz reports the stuck ones.
    const deps = { ...gatewayDepsOf(runtime, engine), turnHealth: turnsInFlight };
    if (hub) deps.replier = hub.watchReplier(deps.replier);
    const journal = state ? new DevTurnJournal(plane.table, deps.turnQueue) : undefined;
    if (journal) {
      deps.turnQueue = journal;
      // After the pollers stop: a turn still in hand then was not a death of the server.
      cleanup.push({ name: 'the turn journal', run: () => journal.release() });
    }
    if (hub) deps.turnQueue = hub.watchTurnQueue(deps.turnQueue);
    const app = createGatewayApp(deps);
    let hotReload: HotReload | undefined;
    const reloadStatus = () => ({ watching: hotReload !== undefined, ...(hotReload?.last ? { last: hotReload.last } : {}) });
    const pluginLoads = enginePluginLoads(engine);
    const hooksStatus = () => new ConsoleData({ table: plane.table, sqs: plane.clients.sqs, dlqs: [], home: options.home, pluginLoads }).hooks();
    if (hub) mountDevConsole(app, { hub, plane, aws, home: options.home, replier: deps.replier, reloadStatus, pluginLoads, ...(state ? { state: state.dir } : {}) });
    // One request, one engine, even if a reload happens meanwhile.
    const server = await listen((request, env) => engine.pinned(() => Promise.resolve(app.fetch(request, env))), options.port ?? 8787);
    cleanup.push({
      name: 'the HTTP server',
      run: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Idle keep-alive connections would hold close() open for their timeout.
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }),
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const pollerError = (queue: string) => (error: unknown) => logger.error(`local ${queue} poller`, { error: String(error) });
    // OTLP export (--otlp / HOOKGATE_OTLP_ENDPOINT) happens here, in the observer, never in the gateway or a turn.
    const telemetry = await createObserverTelemetry(runtime, engine, { metricsIntervalMs: DEV_METRICS_INTERVAL_MS });
    if (telemetry) cleanup.push({ name: 'the telemetry export', run: () => telemetry.shutdown() });
    const observer = await startSqsPoller({
      sqs: plane.clients.sqs,
      queueUrl: aws.eventsQueueUrl,
      handler: engine.pinnedHandler(await createObserverFunction(runtime, { engine, telemetry: telemetry ?? null })),
      batchSize: 10,
      batchWindowMs: 50,
      onError: pollerError('events'),
    });
    const pollers: SqsPoller[] = [observer];
    // Observer events SNS did not take wait on the table; this publishes them once it takes them again.
    const sweeper = startOutboxSweepTimer(plane, logger, options.outboxSweepMs ?? DEV_OUTBOX_SWEEP_MS);
    cleanup.push({ name: 'the outbox sweeper', run: () => sweeper.stop() });
    // All pollers stop together: each waits for its poll in progress (≤ 1 s) and its batch in hand.
    cleanup.push({ name: 'the queue pollers', run: () => Promise.all(pollers.map((p) => p.stop())).then(() => undefined), budgetMs: POLLERS_BUDGET_MS });
    const createTurnConsumer = options.createTurnConsumer;
    let prepareTurnConsumer: ((engine: HookEngine) => Promise<unknown>) | undefined;
    if (createTurnConsumer) {
      // Turn replies get the full HOOKGATE_REPLY_* policy, as in Lambda; deps.replier is the
      // gateway's own (capped at 2 quick tries: it answers inside the webhook's deadline). The
      // console watches both.
      const fullRetry = redactingReplier(turnReplierOf(runtime));
      const turnReplier = hub ? hub.watchReplier(fullRetry) : fullRetry;
      // One consumer per engine (it reads config.yaml settings when built); a batch runs on one.
      const turns = turnConsumerPerEngine(engine, (current) =>
        createTurnConsumer({
          config,
          plane,
          engine: current,
          replier: turnReplier,
          logger,
          turnsInFlight,
          signal: shutdown.signal,
          toolHost: 'local',
          hiddenFromTools: state ? [state.dir] : [],
        }),
      );
      await turns.prepare(engine.current);
      prepareTurnConsumer = turns.prepare;
      const consumer = turns.handler;
      const settled = journal ? journal.settling(consumer) : consumer;
      const handler = hub ? hub.watchTurns(settled) : settled;
      const turnPollers: SqsPoller[] = await Promise.all([
        startSqsPoller({ sqs: plane.clients.sqs, queueUrl: aws.turnsQueueUrl, handler, batchSize: 1, concurrency: 2, onError: pollerError('turns') }),
        startSqsPoller({ sqs: plane.clients.sqs, queueUrl: aws.timersQueueUrl, handler, batchSize: 10, onError: pollerError('timers') }),
      ]);
      pollers.push(...turnPollers);
    }

    if (baseline !== undefined) {
      hotReload = await startDevHotReload({
        home: options.home,
        holder: engine,
        engineOptions,
        createEngine: options.createEngine,
        baseline,
        ...(prepareTurnConsumer ? { prepare: prepareTurnConsumer } : {}),
        ...(options.allowInvalidConfig ? { allowInvalidConfig: true } : {}),
        ...(state ? { ignore: [state.dir] } : {}),
        print,
        ...(hub ? { hub } : {}),
        hooksStatus,
      });
      const running = hotReload;
      cleanup.push({ name: 'the hot reload', run: () => running.stop() });
    }

    await writeDevEndpoints(options.home, { ...stripStop(aws), gatewayUrl: url, pid: process.pid });
    cleanup.push({ name: 'the dev endpoints file', run: () => removeDevEndpoints(options.home) });
    // Runs first on stop: the gateway shuts down its running agents (§1.13.1).
    cleanup.push({
      name: 'on_session_finalize',
      run: () => finalizeRunningSessions(engine, turnsInFlight.sessions()),
      budgetMs: FINALIZE_BUDGET_MS,
    });
    await announceGatewayStartup(deps, { once: false });
    // A turn that stopped the server twice is answered with an error, not re-run into a crash loop.
    const dropped = journal
      ? await journal.dropRepeatedCrashes(deps.replier, (message, error) => logger.warn('the error reply for a dropped turn could not be sent', { delivery_id: message.delivery_id, error: String(error) }))
      : [];
    for (const message of dropped) {
      logger.warn('turn dropped: it stopped the server twice while it ran', { delivery_id: message.delivery_id, session_key: message.session_key });
    }
    const redriven = journal ? await journal.redrive() : 0;

    // Read before the banner, which is one write: harnesses read it whole as soon as `serving` shows.
    const loaded = loadedHooksLines(await hooksStatus());
    const banner = [`hookgate dev: serving ${url}`];
    banner.push(`  hooks home: ${options.home}`);
    for (const line of loaded) banner.push(line);
    banner.push(state ? `  state: ${state.dir} (kept across restarts; --fresh to start empty${redriven ? `; ${redriven} unanswered turn(s) re-queued` : ''}${dropped.length ? `; ${dropped.length} turn(s) dropped: each stopped the server twice` : ''})` : '  state: in memory (lost when dev stops)');
    if (hub) banner.push(`  console: ${url}/console`);
    banner.push(hotReload ? '  hot reload: on (plugins, gateway hooks, config.yaml, the allowlist; --no-watch to turn it off)' : '  hot reload: off');
    banner.push(`  platforms: ${enabledPlatforms(config).join(', ')}  (POST ${url}/webhooks/<platform>)`);
    for (const { platform, missing } of config.disabled) banner.push(`  ${platform} is off: set ${missing.join(', ')}`);
    banner.push(`  local chat: POST ${url}/webhooks/local {"chat_id","user_id","text"} (content-type: application/json); replies: GET ${url}/webhooks/local/messages?chat_id=…`);
    banner.push(`  hook API: ${url}/v1/hooks/<hook>, ${url}/v1/events  (Authorization: Bearer ${generatedToken ? `${generatedToken}, generated; set HOOKGATE_API_TOKEN to choose one` : '$HOOKGATE_API_TOKEN'})`);
    if (config.otlp) banner.push(`  telemetry: OTLP (${config.otlp.protocol}) to ${config.otlp.endpoint}`);
    if (!config.model.baseUrl) banner.push('  model: the built-in local stand-in model (set HOOKGATE_MODEL_BASE_URL for a real one)');
    if (!options.createTurnConsumer) banner.push('  turns: no turn runtime wired; messages stay on the turns queue');
    else banner.push(...toolSandboxLines(engine.current, options.home));
    print(banner.join('\n'));

    return { url, config, aws, apiToken: config.apiToken!, stop, ...(hotReload ? { hotReload } : {}) };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * `on_session_finalize` once per session, one after another, run here (the observer
 * consumer is about to stop) and published for telemetry. Hook failures are the engine's to
 * log; nothing here throws.
 */
async function finalizeRunningSessions(engine: HookEngine, sessionIds: readonly string[]): Promise<void> {
  for (const sessionId of sessionIds) {
    await engine
      .observe('on_session_finalize', { session_id: sessionId, platform: 'gateway', reason: 'shutdown' }, { session_id: sessionId, inline: true })
      .catch((error: unknown) => process.stderr.write(`hookgate dev: on_session_finalize for ${sessionId}: ${String(error)}\n`));
  }
}

/** True when `work` settled within `ms`; false when the wait was given up (work goes on unawaited). */
async function withinBudget(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const settled = work.then(() => true);
  settled.catch(() => {}); // a failure after the budget is nobody's to handle any more
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
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
      reject(error.code === 'EADDRINUSE' ? new DevStartError(`port ${port} on 127.0.0.1 is in use; pass --port <another>`) : error),
    );
  });
}
