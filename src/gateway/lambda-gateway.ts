import type { Hono } from 'hono';
import { loadGatewayConfig } from '../config/gateway-config.ts';
import type { HookEngine, HookEngineOptions } from '../hooks/hook-engine.ts';
import { createDataPlane, dataPlaneFromEnv, type DataPlane, type DataPlaneResources } from '../pipeline/data-plane.ts';
import { createGatewayApp } from './app.ts';
import { gatewayDepsFromDataPlane } from './gateway-deps-from-data-plane.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { createGatewayLogger } from './gateway-logger.ts';
import { announceGatewayStartup } from './gateway-startup.ts';

export interface LambdaGatewayOptions {
  env?: NodeJS.ProcessEnv;
  createEngine: (options: HookEngineOptions) => Promise<HookEngine> | HookEngine;
  /** Where the resources are; default: the stack's environment (`dataPlaneFromEnv`). */
  resources?: DataPlaneResources;
  /** Extra engine options (e.g. the bundle's statically imported modules), passed through. */
  engineOptions?: Partial<HookEngineOptions> & Record<string, unknown>;
  /** Adds routes to the app (the console, when enabled: `mountConsoleWhenEnabled`). */
  mount?: (app: Hono, context: { deps: GatewayDeps; plane: DataPlane; env: NodeJS.ProcessEnv }) => void;
}

/**
 * Everything the gateway λ builds once per cold start: configuration (validated; a bad
 * variable fails the cold start with a message naming it), the data plane from the
 * stack's environment, the engine with gateway hooks and the SNS sink, the app; then
 * `gateway:startup` once per deployed version.
 *
 * @example
 * const { app } = await createLambdaGateway({ createEngine: createHookEngine });
 * export const handler = handle(app);
 */
export async function createLambdaGateway(
  options: LambdaGatewayOptions,
): Promise<{ app: Hono; deps: GatewayDeps }> {
  const env = options.env ?? process.env;
  const config = loadGatewayConfig(env, { runtime: 'aws' });
  const logger = createGatewayLogger(env);
  for (const { platform, missing } of config.disabled) logger.info(`${platform} is disabled: ${missing.join(', ')} not set`);
  const plane = createDataPlane(options.resources ?? dataPlaneFromEnv(env));
  const engine = await options.createEngine({
    ...options.engineOptions,
    gatewayHooks: true,
    observerSink: plane.observerSink,
    allowlist: plane.allowlist,
    logger,
  } as HookEngineOptions);
  const deps = gatewayDepsFromDataPlane({ config, engine, plane, logger });
  await announceGatewayStartup(deps, { once: true });
  const app = createGatewayApp(deps);
  options.mount?.(app, { deps, plane, env });
  return { app, deps };
}
