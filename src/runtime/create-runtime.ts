import { createLinePrinter } from '../logging/log-line.ts';
import type { Logger } from '@aws-lambda-powertools/logger';
import { hookRunsWanted, recordHookRun } from '../agent/trace/hook-run-scope.ts';
import { modelPromptJudge } from '../agent/model/model-prompt-judge.ts';
import type { DeploymentConfig } from '../config/deployment-config.ts';
import type { CreateHookEngineOptions } from '../hooks/create-hook-engine.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { createDataPlane, dataPlaneFromConfig, type DataPlane } from '../pipeline/data-plane.ts';
import { createHookgateLogger } from '../logging/hookgate-logger.ts';

/**
 * Builds a hook engine: `createEngineFromBundle` in a Lambda bundle, `createHookEngine` (from
 * disk) under `hookgate dev` and in tests.
 */
export type EngineFactory = (options: CreateHookEngineOptions) => Promise<HookEngine> | HookEngine;

/**
 * Which part: one per function (`gateway`, `turn`, `observer`), or `local` — `hookgate dev`,
 * which runs the three in one process over one engine.
 */
export type RuntimeRole = 'gateway' | 'turn' | 'observer' | 'local';

/** The engine options the runtime decides per role (see `Runtime.engineOptions`). */
type RoleOptions = 'gatewayHooks' | 'observerSink' | 'allowlist' | 'logger' | 'onRun' | 'onRunWanted';

export interface RuntimeInputs {
  createEngine: EngineFactory;
  /** Passed to every engine besides the role's own options: the hooks home, `acceptHooks`, `print`. */
  engineOptions?: Omit<CreateHookEngineOptions, RoleOptions>;
  /**
   * One logger for every part (`hookgate dev`'s). Default: one structured logger per role
   * (`hookgate-gateway`, `hookgate-turn`, `hookgate-observer`) at the config's `logLevel`.
   */
  logger?: Logger;
}

/**
 * The parts every function of a deployment shares, built once per cold start. The handlers
 * are built from it by `createGatewayFunction`, `createTurnFunction` and
 * `createObserverFunction`, one module each, so that a function's bundle holds only its own.
 */
export interface Runtime {
  readonly config: DeploymentConfig;
  /** Stores, queues and the observer sink over one set of SDK clients (`createDataPlane`). */
  readonly plane: DataPlane;
  /** The logger of one role (the same one on every call). */
  logger(role: RuntimeRole): Logger;
  /**
   * What the engine of `role` is built with:
   * - gateway: gateway hooks (it fires `gateway:startup` and `command:*`), observer events to SNS;
   * - turn: no gateway hooks (they run in the observer), observer events to SNS, callback runs
   *   recorded for the turn trace;
   * - observer: gateway hooks, no sink (this is where observers run), callback runs recorded
   *   into the emitting turn's trace;
   * - local: all of the above in one engine, for `hookgate dev`.
   * Consent to shell hooks comes from the deployment's table, except `local`, which reads the
   * hooks home's allowlist file (what `hookgate hooks approve` writes locally). Deployed engines
   * log through the role's logger; the `local` one prints as the CLI does (the engine's default).
   */
  engineOptions(role: RuntimeRole): CreateHookEngineOptions;
  /** `inputs.createEngine(engineOptions(role))`. */
  createEngine(role: RuntimeRole): Promise<HookEngine>;
}

const SERVICE_NAMES: Record<RuntimeRole, string> = {
  gateway: 'hookgate-gateway',
  turn: 'hookgate-turn',
  observer: 'hookgate-observer',
  local: 'hookgate-dev',
};

/**
 * The composition root: from one parsed deployment config, the parts the functions share —
 * the data plane, the loggers, each role's engine options (no casts: the factory takes
 * `CreateHookEngineOptions`). A Lambda entry builds one runtime per cold start and its
 * handler from it; `hookgate dev` builds one over the emulators and runs all three parts.
 *
 * @example
 * const runtime = createRuntime(loadDeploymentConfig(process.env, { runtime: 'aws' }), { createEngine: createEngineFromBundle });
 * export const handler = await createObserverFunction(runtime);
 */
export function createRuntime(config: DeploymentConfig, inputs: RuntimeInputs): Runtime {
  const plane = createDataPlane(
    dataPlaneFromConfig(config),
    config.transcriptRetentionDays === undefined ? {} : { transcriptRetentionSeconds: config.transcriptRetentionDays * 86_400 },
  );
  const loggers = new Map<RuntimeRole, Logger>();
  const logger = (role: RuntimeRole): Logger => {
    if (inputs.logger) return inputs.logger;
    let built = loggers.get(role);
    if (!built) loggers.set(role, (built = createHookgateLogger(SERVICE_NAMES[role], config.logLevel)));
    return built;
  };
  const engineOptions = (role: RuntimeRole): CreateHookEngineOptions => {
    // A deployed engine's `[hooks] …` lines (hook-semantics §0.5) go to stdout in the one log format,
    // the text verbatim in the message; `hookgate dev` passes its own printer (or holds the lines).
    const print = inputs.engineOptions?.print ?? (role === 'local' ? undefined : createLinePrinter(SERVICE_NAMES[role]));
    const promptJudge = modelPromptJudge(config.model);
    const base = {
      ...inputs.engineOptions,
      ...(print ? { print } : {}),
      ...(promptJudge ? { promptJudge } : {}),
      ...(config.httpHookSecret ? { httpHookSecret: config.httpHookSecret } : {}),
    };
    switch (role) {
      case 'gateway':
        return {
          ...base,
          gatewayHooks: true,
          observerSink: plane.observerSink,
          allowlist: plane.allowlist,
          logger: logger(role),
        };
      case 'turn':
        return {
          ...base,
          gatewayHooks: false,
          observerSink: plane.observerSink,
          allowlist: plane.allowlist,
          logger: logger(role),
          onRun: recordHookRun,
          onRunWanted: hookRunsWanted,
        };
      case 'observer':
        return {
          ...base,
          gatewayHooks: true,
          allowlist: plane.allowlist,
          logger: logger(role),
          onRun: recordHookRun,
          onRunWanted: hookRunsWanted,
        };
      case 'local':
        // hookgate dev: an http hook served on this machine (loopback) may be called (hook-semantics §5.10).
        return {
          ...base,
          gatewayHooks: true,
          observerSink: plane.observerSink,
          onRun: recordHookRun,
          onRunWanted: hookRunsWanted,
          allowLoopbackHttpHooks: true,
        };
    }
  };
  return {
    config,
    plane,
    logger,
    engineOptions,
    createEngine: async (role) => inputs.createEngine(engineOptions(role)),
  };
}
