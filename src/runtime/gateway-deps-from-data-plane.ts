import type { Logger } from '@aws-lambda-powertools/logger';
import type { DeploymentConfig } from '../config/deployment-config.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import type { DataPlane } from '../pipeline/data-plane.ts';
import { DynamoLocalOutboxStore } from '../store/local-outbox-store.ts';
import { DynamoTraceStore } from '../store/trace-store.ts';
import { redactingReplier } from '../messaging/redacting-replier.ts';
import { createReplier } from '../platforms/create-replier.ts';
import { gatewayReplyRetry } from '../messaging/reply-retry.ts';
import type { GatewayDeps } from '../gateway/gateway-deps.ts';

/**
 * The gateway's dependencies over one data plane: its stores, turn queue and observer sink,
 * the local outbox in the same table (when `local` is enabled) and the platform replier.
 *
 * @example
 * const deps = gatewayDepsFromDataPlane({ config, engine, plane, logger });
 * const app = createGatewayApp(deps);
 */
export function gatewayDepsFromDataPlane(options: {
  config: DeploymentConfig;
  engine: HookEngine;
  plane: DataPlane;
  logger: Logger;
}): GatewayDeps {
  const { config, engine, plane, logger } = options;
  const outbox = config.platforms.local ? new DynamoLocalOutboxStore(plane.table) : undefined;
  return {
    config,
    engine,
    dedup: plane.dedup,
    sessions: plane.sessions,
    approvals: plane.approvals,
    turnQueue: plane.turnQueue,
    observerSink: plane.observerSink,
    traces: new DynamoTraceStore(plane.table),
    replier: redactingReplier(
      createReplier(config, { ...(outbox ? { outbox } : {}), retry: gatewayReplyRetry(config.replyRetry) }),
    ),
    ...(outbox ? { outbox } : {}),
    logger,
  };
}
