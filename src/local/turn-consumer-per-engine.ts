import type { HookEngine } from '../hooks/hook-engine.ts';
import type { EngineHolder } from './engine-holder.ts';
import type { SqsEventHandler } from './sqs-poller.ts';

/**
 * The turns queue's handler when the engine can be replaced (hot reload): one turn consumer
 * per engine, built from that engine (the turn runtime reads config.yaml settings such as
 * `terminal.env_passthrough` and `files.allowed_roots` from it when built), and each batch
 * handled by the consumer of the engine current when it starts — a turn runs on one engine
 * from start to end. `prepare` builds a new engine's consumer ahead (a reload fails if it
 * cannot be built).
 *
 * @example
 * const turns = turnConsumerPerEngine(holder, (engine) => createTurnConsumer({ ...context, engine }));
 * await turns.prepare(newEngine); // before holder.swap(newEngine)
 * startSqsPoller({ …, handler: turns.handler });
 */
export function turnConsumerPerEngine(
  holder: EngineHolder,
  create: (engine: HookEngine) => SqsEventHandler | Promise<SqsEventHandler>,
): { handler: SqsEventHandler; prepare: (engine: HookEngine) => Promise<SqsEventHandler> } {
  const built = new WeakMap<HookEngine, Promise<SqsEventHandler>>();
  const prepare = (engine: HookEngine): Promise<SqsEventHandler> => {
    let consumer = built.get(engine);
    if (!consumer) {
      consumer = Promise.resolve().then(() => create(engine));
      built.set(engine, consumer);
      consumer.catch(() => built.delete(engine));
    }
    return consumer;
  };
  return {
    prepare,
    handler: (event) => holder.pinned(async (engine) => (await prepare(engine))(event)),
  };
}
