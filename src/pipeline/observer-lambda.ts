import type { HookEngine, HookEngineOptions } from '../hooks/hook-engine.ts';
import { createStderrLogger, type HookLogger } from '../hooks/hook-logger.ts';
import { createDataPlane, dataPlaneFromEnv, type DataPlaneResources } from './data-plane.ts';
import { createObserverConsumer, type ObserverHandler } from './observer-consumer.ts';

export interface LambdaObserverOptions {
  env?: NodeJS.ProcessEnv;
  createEngine: (options: HookEngineOptions) => Promise<HookEngine> | HookEngine;
  /** Where the resources are; default: the stack's environment (`dataPlaneFromEnv`). */
  resources?: DataPlaneResources;
  /** Extra engine options (e.g. the bundle's statically imported modules), passed through. */
  engineOptions?: Partial<HookEngineOptions> & Record<string, unknown>;
  logger?: HookLogger;
}

/**
 * Everything the observer λ builds once per cold start: the data plane from the stack's
 * environment, an engine that runs observers here (no sink: this is where they run), with
 * gateway event hooks and the DynamoDB allowlist for shell observers, and the consumer.
 *
 * @example
 * export const handler = await createLambdaObserver({ createEngine: createHookEngine });
 */
export async function createLambdaObserver(options: LambdaObserverOptions): Promise<ObserverHandler> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createStderrLogger();
  const plane = createDataPlane(options.resources ?? dataPlaneFromEnv(env));
  const engine = await options.createEngine({
    ...options.engineOptions,
    gatewayHooks: true,
    allowlist: plane.allowlist,
    logger,
  } as HookEngineOptions);
  return createObserverConsumer({
    engine,
    table: plane.idempotency,
    payloads: plane.payloads,
    logger,
  });
}
