import { createTurnConsumer } from '../agent/turn-consumer.ts';
import { createReplier } from '../messaging/create-replier.ts';
import type { Replier } from '../messaging/replier.ts';
import { DynamoLocalOutboxStore } from '../store/local-outbox-store.ts';
import type { Runtime } from './create-runtime.ts';

/**
 * The replier of turns: every enabled platform with the full `HOOKGATE_REPLY_*` retry policy
 * (the gateway's own is capped so that it answers inside a webhook's deadline); `local`
 * replies go to the outbox in the runtime's table.
 *
 * @example
 * await turnReplierOf(runtime).send(target, 'done');
 */
export function turnReplierOf(runtime: Runtime): Replier {
  const { config, plane } = runtime;
  return createReplier(config, config.platforms.local ? { outbox: new DynamoLocalOutboxStore(plane.table) } : {});
}

/**
 * The turn λ: its engine, the turn replier and the handler of the turns and timers queues.
 *
 * @example
 * export const handler = await createTurnFunction(runtime);
 */
export async function createTurnFunction(runtime: Runtime): Promise<ReturnType<typeof createTurnConsumer>> {
  const { config, plane } = runtime;
  const engine = await runtime.createEngine('turn');
  // The turn function never runs a chat user's command itself: the tools function does (refused until it is deployed).
  return createTurnConsumer({ config, plane, engine, replier: turnReplierOf(runtime), logger: runtime.logger('turn'), toolHost: 'lambda' });
}
