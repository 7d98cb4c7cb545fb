import { randomBytes } from 'node:crypto';
import { TurnsInFlight } from '../agent/turn/turns-in-flight.ts';
import { enabledPlatforms, loadDeploymentConfig, type DeploymentConfig } from '../config/deployment-config.ts';
import { announceGatewayStartup } from '../gateway/gateway-startup.ts';
import { discordAnswerWindowWarning } from '../gateway/dispatch/discord-answer-window.ts';
import { dataPlaneFromLocalAws } from '../pipeline/data-plane.ts';
import { createRuntime, type EngineFactory } from '../runtime/create-runtime.ts';
import { createHookgateLogger } from '../logging/hookgate-logger.ts';
import { removeDevEndpoints, writeDevEndpoints } from './dev-endpoints.ts';
import { ConsoleHub } from '../console/console-hub.ts';
import { mountDevConsole } from '../console/mount-dev-console.ts';
import { ConsoleData } from '../console/console-data.ts';
import { devBanner, loadedHooksLines, toolSandboxLines } from './dev-banner.ts';
import { startEmulators, type RunningEmulators } from './emulators.ts';
import { prepareDevState, type DevStateOptions } from './dev-state.ts';
import { DevTurnJournal } from './turn-journal.ts';
import { startDevHotReload } from './dev-hot-reload.ts';
import { EngineHolder } from './engine-holder.ts';
import { enginePluginLoads } from './engine-plugin-loads.ts';
import { hooksHomeDigest } from './hooks-home-files.ts';
import type { HotReload } from './hot-reload.ts';
import { finalizeRunningSessions } from './finalize-running-sessions.ts';
import { startLocalGateway } from './local-gateway.ts';
import { startLocalObserver } from './local-observer.ts';
import { startLocalTurns, type TurnConsumerContext } from './local-turns.ts';
import type { SqsEventHandler } from './sqs-poller.ts';
import { StopSteps } from './stop-steps.ts';
import { errorText } from '../errors/error-text.ts';

export type { TurnConsumerContext } from './local-turns.ts';

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
   * turn in flight (hook-semantics §1.13.1), then each part, none waited for past its budget; the observer
   * works through the events queue once the turns have stopped, so their last events are not lost.
   */
  stop(): Promise<void>;
}

/** How long shutdown waits for all `on_session_finalize` calls together. */
const FINALIZE_BUDGET_MS = 1_500;
/** How long shutdown waits for the turn pollers (their long poll is 1 s; a turn may hang in a hook). */
const POLLERS_BUDGET_MS = 1_200;
/** How long shutdown lets the observer work through the events queue once the turns have stopped. */
const EVENTS_DRAIN_BUDGET_MS = 1_000;
/** How often the dev outbox sweeper looks for events SNS did not take. */
const DEV_OUTBOX_SWEEP_MS = 2_000;

/**
 * `hookgate dev`: emulators, then the deployment's composition over them — `createRuntime`
 * (data plane, one hook engine in the `local` role: gateway hooks on, observer events through
 * SNS) and the functions' own pieces: the gateway app (`startLocalGateway`) on 127.0.0.1,
 * the observer λ (`startLocalObserver`) and the turn λ's consumer (`startLocalTurns`) behind
 * local SQS pollers. What is local decorates them: the console, the turn journal, hot reload,
 * the dev endpoints file, `gateway:startup` at every start. `stop()` undoes all of it, in reverse.
 *
 * @example
 * const dev = await startDevRuntime({ home, port: 0, createEngine: createHookEngine });
 * await fetch(`${dev.url}/webhooks/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"chat_id":"c","user_id":"u","text":"hi"}' });
 * await dev.stop();
 */
export async function startDevRuntime(options: DevRuntimeOptions): Promise<DevRuntime> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const baseEnv = options.env ?? process.env;
  const steps = new StopSteps();
  const stop = () => steps.stop();
  const turnsInFlight = new TurnsInFlight();

  try {
    // The environment, parsed once: a malformed variable fails here, before anything starts (the error names it).
    const parsed = loadDeploymentConfig(
      options.otlpEndpoint !== undefined ? { ...baseEnv, HOOKGATE_OTLP_ENDPOINT: options.otlpEndpoint } : baseEnv,
      { runtime: 'local' },
    );
    const state = options.state ? await prepareDevState(options.state) : undefined;
    if (state) steps.add('the state folder', () => state.release());
    const aws = await startEmulators({
      ...(options.dynamodbEndpoint
        ? { dynamodbEndpoint: options.dynamodbEndpoint }
        : state
          ? { dynamodbPath: state.dynamodbPath }
          : {}),
      ...(options.sqsEndpoint ? { sqsEndpoint: options.sqsEndpoint } : {}),
    });
    steps.add('the emulators', () => aws.stop());
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
    steps.add('the SDK clients', () => plane.destroy());

    const hub = options.console === false ? undefined : new ConsoleHub();
    const engineOptions = {
      ...runtime.engineOptions('local'),
      observerSink: hub ? hub.watchSink(plane.observerSink) : plane.observerSink,
    };
    // Taken before the engine is built: a change made while it loads is reloaded.
    const baseline = options.watch ? await hooksHomeDigest(options.home) : undefined;
    // The gateway and both consumers hold this; a hot reload swaps the engine inside it.
    const engine = new EngineHolder(await options.createEngine(engineOptions));
    steps.add('the hook engine', () => engine.close());
    const journal = state ? new DevTurnJournal(plane.table, plane.turnQueue) : undefined;
    // After the pollers stop: a turn still in hand then was not a death of the server.
    if (journal) steps.add('the turn journal', () => journal.release());

    let hotReload: HotReload | undefined;
    const reloadStatus = () => ({ watching: hotReload !== undefined, ...(hotReload?.last ? { last: hotReload.last } : {}) });
    const pluginLoads = enginePluginLoads(engine);
    const hooksStatus = () =>
      new ConsoleData({ table: plane.table, sqs: plane.clients.sqs, dlqs: [], home: options.home, pluginLoads }).hooks();
    const { url, deps } = await startLocalGateway({
      runtime,
      engine,
      turnsInFlight,
      ...(hub
        ? {
            hub,
            mount: (app, deps) =>
              mountDevConsole(app, {
                hub,
                plane,
                aws,
                home: options.home,
                replier: deps.replier,
                reloadStatus,
                pluginLoads,
                ...(state ? { state: state.dir } : {}),
              }),
          }
        : {}),
      ...(journal ? { journal } : {}),
      port: options.port ?? 8787,
      steps,
    });

    const pollerError = (queue: string) => (error: unknown) => logger.error(`local ${queue} poller`, { error: errorText(error) });
    const observer = await startLocalObserver({
      runtime,
      engine,
      aws,
      steps,
      logger,
      outboxSweepMs: options.outboxSweepMs ?? DEV_OUTBOX_SWEEP_MS,
      onError: pollerError('events'),
    });
    // Steps run in reverse: the turn pollers stop first, then the observer handles what the last turns published as
    // they ended (their on_session_end among it), which the events queue, in memory here, would otherwise lose.
    steps.add('the events poller', () => observer.stop());
    steps.add('the events queue', () => observer.drain(), EVENTS_DRAIN_BUDGET_MS);
    const turns = options.createTurnConsumer
      ? await startLocalTurns({
          runtime,
          engine,
          aws,
          createTurnConsumer: options.createTurnConsumer,
          turnsInFlight,
          signal: steps.signal,
          hiddenFromTools: state ? [state.dir] : [],
          ...(hub ? { hub } : {}),
          ...(journal ? { journal } : {}),
          onError: pollerError,
        })
      : undefined;
    if (turns) {
      const { pollers } = turns;
      // Together: each waits for its poll in progress (≤ 1 s) and its batch in hand.
      steps.add('the turn pollers', () => Promise.all(pollers.map((p) => p.stop())).then(() => undefined), POLLERS_BUDGET_MS);
    }

    if (baseline !== undefined) {
      hotReload = await startDevHotReload({
        home: options.home,
        holder: engine,
        engineOptions,
        createEngine: options.createEngine,
        baseline,
        ...(turns ? { prepare: turns.prepare } : {}),
        ...(options.allowInvalidConfig ? { allowInvalidConfig: true } : {}),
        ...(state ? { ignore: [state.dir] } : {}),
        print,
        ...(hub ? { hub } : {}),
        hooksStatus,
        discordWindow: (current) => discordAnswerWindowWarning(current, enabledPlatforms(config)),
      });
      const running = hotReload;
      steps.add('the hot reload', () => running.stop());
    }

    await writeDevEndpoints(options.home, { ...stripStop(aws), gatewayUrl: url, pid: process.pid });
    steps.add('the dev endpoints file', () => removeDevEndpoints(options.home));
    // Runs first on stop: the gateway shuts down its running agents (§1.13.1).
    steps.add('on_session_finalize', () => finalizeRunningSessions(engine, turnsInFlight.sessions()), FINALIZE_BUDGET_MS);
    await announceGatewayStartup(deps, { once: false });
    // A turn that stopped the server twice is answered with an error, not re-run into a crash loop.
    const resumed = journal ? await journal.resume(deps.replier, logger) : { dropped: 0, redriven: 0 };

    // Read before the banner, which is one write: harnesses read it whole as soon as `serving` shows.
    const loaded = loadedHooksLines(await hooksStatus());
    const discordWindow = discordAnswerWindowWarning(engine.current, enabledPlatforms(config));
    print(
      devBanner({
        url,
        home: options.home,
        config,
        loaded,
        ...(state ? { state: { dir: state.dir, ...resumed } } : {}),
        console: hub !== undefined,
        hotReload: hotReload !== undefined,
        ...(generatedToken ? { generatedToken } : {}),
        ...(turns ? { toolSandbox: toolSandboxLines(engine.current, options.home) } : {}),
        ...(discordWindow ? { discordWindow } : {}),
      }),
    );

    return { url, config, aws, apiToken: config.apiToken!, stop, ...(hotReload ? { hotReload } : {}) };
  } catch (error) {
    await stop();
    throw error;
  }
}

function stripStop({ stop: _stop, ...aws }: RunningEmulators) {
  return aws;
}
