import { lambdaToolSandbox } from '../agent/sandbox/lambda-sandbox.ts';
import type { Logger } from '@aws-lambda-powertools/logger';
import { createTurnConsumer } from './turn-consumer.ts';
import type { DeploymentConfig } from '../config/deployment-config.ts';
import type { DataPlane } from '../pipeline/data-plane.ts';
import { createReplier } from '../platforms/create-replier.ts';
import type { Replier } from '../messaging/replier.ts';
import { DynamoLocalOutboxStore } from '../store/local-outbox-store.ts';
import type { Runtime } from './create-runtime.ts';

/**
 * The replier of turns: every platform whose reply credentials are set (`replyPlatforms`: the
 * turn function never gets the inbound verification secrets) with the full `HOOKGATE_REPLY_*`
 * retry policy (the gateway's own is capped so that it answers inside a webhook's deadline);
 * `local` replies go to the outbox in the runtime's table.
 *
 * @example
 * await turnReplierOf(runtime).send(target, 'done');
 */
export function turnReplierOf(runtime: Runtime): Replier {
  const { config, plane } = runtime;
  return createReplier(
    { ...config, platforms: config.replyPlatforms },
    config.replyPlatforms.local ? { outbox: new DynamoLocalOutboxStore(plane.table) } : {},
  );
}

/** What every turn consumer of a runtime shares, whatever its engine and wherever its tools run. */
export interface TurnConsumerBase {
  config: DeploymentConfig;
  plane: DataPlane;
  /** `turnReplierOf(runtime)`: not redacting; the turn handler redacts every way out itself (`withRedactedOutputs`). */
  replier: Replier;
  logger: Logger;
}

/**
 * What a turn consumer is built from wherever it runs, besides its engine: the runtime's
 * config and data plane, the turn replier and the turn logger. Where the chat's tools run is
 * the caller's to add: the tools function (`createTurnFunction`), or this machine under
 * `hookgate dev` (local/local-turns.ts).
 *
 * @example
 * createTurnConsumer({ ...turnConsumerBaseOf(runtime), engine, toolHost: 'local' });
 */
export function turnConsumerBaseOf(runtime: Runtime): TurnConsumerBase {
  return { config: runtime.config, plane: runtime.plane, replier: turnReplierOf(runtime), logger: runtime.logger('turn') };
}

/**
 * The turn λ: its engine, the turn replier and the handler of the turns and timers queues. The
 * chat's tools run in the tools function (`lambdaToolSandbox`): never in this process.
 *
 * @example
 * export const handler = await createTurnFunction(runtime);
 */
export async function createTurnFunction(runtime: Runtime): Promise<ReturnType<typeof createTurnConsumer>> {
  const engine = await runtime.createEngine('turn');
  // The turn function never runs a chat user's command itself: the tools function does (lambda-sandbox.ts),
  // or, where the stack named none, every tool call is refused with the fix.
  return createTurnConsumer({
    ...turnConsumerBaseOf(runtime),
    engine,
    toolHost: 'lambda',
    lambdaSandbox: () => lambdaToolSandbox(runtime.config.resources),
  });
}
