import { traceObserverRuns } from '../agent/trace/observer-trace.ts';
import { DynamoTraceStore } from '../store/trace-store.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { createObserverConsumer, type ObserverHandler } from '../pipeline/observer-consumer.ts';
import type { Runtime } from './create-runtime.ts';

/**
 * The observer λ: the handler of the events queue, running observers at most once per
 * envelope, over the observer role's engine (or `engine`: `hookgate dev`'s shared one).
 *
 * @example
 * export const handler = await createObserverFunction(runtime);
 */
export async function createObserverFunction(runtime: Runtime, engine?: HookEngine): Promise<ObserverHandler> {
  return createObserverConsumer({
    engine: engine ?? (await runtime.createEngine('observer')),
    table: runtime.plane.idempotency,
    payloads: runtime.plane.payloads,
    logger: runtime.logger('observer'),
    // What observer-side hooks did goes into the emitting turn's trace (the console's timeline).
    around: traceObserverRuns(new DynamoTraceStore(runtime.plane.table), runtime.logger('observer')),
  });
}
