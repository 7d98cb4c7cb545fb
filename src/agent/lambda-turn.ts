import { loadGatewayConfig } from '../config/gateway-config.ts';
import { createReplier } from '../messaging/create-replier.ts';
import { createGatewayLogger } from '../gateway/gateway-logger.ts';
import type { HookEngine, HookEngineOptions } from '../hooks/hook-engine.ts';
import { createDataPlane, dataPlaneFromEnv, type DataPlaneResources } from '../pipeline/data-plane.ts';
import { recordHookRun } from './trace/hook-run-scope.ts';
import { createTurnConsumer } from './turn-consumer.ts';

export interface LambdaTurnOptions {
  env?: NodeJS.ProcessEnv;
  createEngine: (options: HookEngineOptions) => Promise<HookEngine> | HookEngine;
  /** Where the resources are; default: the stack's environment (`dataPlaneFromEnv`). */
  resources?: DataPlaneResources;
  /** Extra engine options (e.g. the bundle's statically imported modules), passed through. */
  engineOptions?: Partial<HookEngineOptions> & Record<string, unknown>;
}

/**
 * Everything the turn λ builds once per cold start: configuration (model endpoint, platform
 * reply credentials; validated), the data plane from the stack's environment, an engine
 * whose observer events go to SNS and whose callback runs feed the turn trace, the
 * platform replier, and the handler for the turns and timers queues.
 *
 * @example
 * export const handler = await createLambdaTurn({ createEngine: createHookEngine });
 */
export async function createLambdaTurn(options: LambdaTurnOptions): Promise<ReturnType<typeof createTurnConsumer>> {
  const env = options.env ?? process.env;
  const config = loadGatewayConfig(env, { runtime: 'aws' });
  const logger = createGatewayLogger(env, 'hookgate-turn');
  const plane = createDataPlane(options.resources ?? dataPlaneFromEnv(env));
  const engine = await options.createEngine({
    ...options.engineOptions,
    gatewayHooks: false,
    observerSink: plane.observerSink,
    allowlist: plane.allowlist,
    logger,
    onRun: recordHookRun,
  } as HookEngineOptions);
  return createTurnConsumer({ config, plane, engine, replier: createReplier(config), logger });
}
