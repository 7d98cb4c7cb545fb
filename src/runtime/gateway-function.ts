import type { Hono } from 'hono';
import { createGatewayApp } from '../gateway/app.ts';
import { gatewayDepsFromDataPlane } from './gateway-deps-from-data-plane.ts';
import type { GatewayDeps } from '../gateway/gateway-deps.ts';
import { announceGatewayStartup, claimGatewayStartup, releaseGatewayStartup } from '../gateway/gateway-startup.ts';
import { loadInboundAdapters } from '../gateway/gateway-adapters.ts';
import { discordAnswerWindowWarning } from '../gateway/dispatch/discord-answer-window.ts';
import { enabledPlatforms } from '../config/deployment-config.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import type { Runtime } from './create-runtime.ts';
import { shortApiTokenWarning } from '../config/short-api-token.ts';

export interface GatewayFunctionOptions {
  /**
   * Adds routes to the app after the gateway's own: the deployed console when enabled
   * (`mountConsoleWhenEnabled`, passed in by functions/gateway.ts, since console/ sits above runtime/).
   */
  mount?: (app: Hono, context: { deps: GatewayDeps; runtime: Runtime }) => void;
}

/**
 * The gateway's dependencies over the runtime's data plane, around `engine` (the gateway
 * role's, or `hookgate dev`'s shared one).
 *
 * @example
 * const app = createGatewayApp(gatewayDepsOf(runtime, await runtime.createEngine('local')));
 */
export function gatewayDepsOf(runtime: Runtime, engine: HookEngine): GatewayDeps {
  return gatewayDepsFromDataPlane({ config: runtime.config, engine, plane: runtime.plane, logger: runtime.logger('gateway') });
}

/**
 * The gateway's Hono app around `engine`, as every runtime builds it: `gatewayDepsOf`, then
 * `decorate` (what differs where it runs: `hookgate dev` watches the replier and turn queue
 * for its console and journals the turns), then the app and `mount`'s routes.
 *
 * @example
 * const { app, deps } = createGatewayAppOf(runtime, engine, { decorate: (deps) => ({ ...deps, turnHealth }) });
 */
export function createGatewayAppOf(
  runtime: Runtime,
  engine: HookEngine,
  options: GatewayFunctionOptions & { decorate?: (deps: GatewayDeps) => GatewayDeps } = {},
): { app: Hono; deps: GatewayDeps } {
  const base = gatewayDepsOf(runtime, engine);
  const deps = options.decorate ? options.decorate(base) : base;
  const app = createGatewayApp(deps);
  options.mount?.(app, { deps, runtime });
  return { app, deps };
}

/**
 * The gateway λ: logs the platforms left off, builds its engine, loads the enabled platforms'
 * adapters (only those: docs/performance.md#cold-start), builds the Hono app, and fires
 * `gateway:startup` once per deployed version.
 *
 * @example
 * const { app } = await createGatewayFunction(runtime, { mount: mountConsoleWhenEnabled });
 * export const handler = handle(app);
 */
export async function createGatewayFunction(
  runtime: Runtime,
  options: GatewayFunctionOptions = {},
): Promise<{ app: Hono; deps: GatewayDeps }> {
  const logger = runtime.logger('gateway');
  for (const { platform, missing } of runtime.config.disabled)
    logger.info(`${platform} is disabled: ${missing.join(', ')} not set`);
  const shortToken = shortApiTokenWarning(runtime.config.apiToken);
  if (shortToken) logger.warn(shortToken);
  // The startup claim's round trip overlaps building the engine, which it does not need.
  const claimant = { config: runtime.config, dedup: runtime.plane.dedup };
  const claim = claimGatewayStartup(claimant);
  claim.catch(() => {}); // awaited and logged by announceGatewayStartup below
  let gateway: { app: Hono; deps: GatewayDeps };
  try {
    // The enabled platforms' adapters load with the engine, at cold start, not on their first webhook.
    const [engine] = await Promise.all([runtime.createEngine('gateway'), loadInboundAdapters(runtime.config)]);
    gateway = createGatewayAppOf(runtime, engine, options);
    const window = discordAnswerWindowWarning(engine, enabledPlatforms(runtime.config));
    if (window) logger.warn(window);
  } catch (error) {
    await releaseGatewayStartup(claimant, claim);
    throw error;
  }
  await announceGatewayStartup(gateway.deps, { once: true, claim });
  return gateway;
}
