import { lambdaToolSandbox } from '../agent/sandbox/lambda-sandbox.ts';
import { createTurnConsumer } from './turn-consumer.ts';
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
  return createReplier({ ...config, platforms: config.replyPlatforms }, config.replyPlatforms.local ? { outbox: new DynamoLocalOutboxStore(plane.table) } : {});
}

/**
 * The turn λ: its engine, the turn replier and the handler of the turns and timers queues. The
 * chat's tools run in the tools function (`lambdaToolSandbox`): never in this process.
 *
 * @example
 * export const handler = await createTurnFunction(runtime);
 */
export async function createTurnFunction(runtime: Runtime): Promise<ReturnType<typeof createTurnConsumer>> {
  const { config, plane } = runtime;
  const engine = await runtime.createEngine('turn');
  // The turn function never runs a chat user's command itself: the tools function does (lambda-sandbox.ts),
  // or, where the stack named none, every tool call is refused with the fix.
  return createTurnConsumer({
    config,
    plane,
    engine,
    replier: turnReplierOf(runtime),
    logger: runtime.logger('turn'),
    toolHost: 'lambda',
    lambdaSandbox: () => lambdaToolSandbox(config.resources),
  });
}
