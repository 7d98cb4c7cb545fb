import { traceObserverRuns } from '../agent/trace/observer-trace.ts';
import { DynamoTraceStore } from '../store/trace-store.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { createObserverConsumer, type ObserverHandler } from './observer-consumer.ts';
import { sweepOutbox } from '../pipeline/outbox-sweeper.ts';
import { isOutboxSweepEvent } from '../pipeline/outbox-sweep-event.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '../pipeline/topology.ts';
import { captureContentFrom } from '../telemetry/capture-content.ts';
import { createTelemetryExport, type TelemetryExport } from '../telemetry/telemetry-export.ts';
import type { Runtime } from './create-runtime.ts';

export interface ObserverFunctionOptions {
  /** The engine to run observers on (`hookgate dev`'s shared one); default: the observer role's. */
  engine?: HookEngine;
  /**
   * The telemetry export (`createObserverTelemetry`); default: built here from the config —
   * OTLP when `HOOKGATE_OTLP_ENDPOINT` is set, EMF metrics in AWS.
   */
  telemetry?: TelemetryExport | null;
}

/**
 * The observer λ: the handler of the events queue, running observers at most once per
 * envelope, over the observer role's engine (or `engine`: `hookgate dev`'s shared one), and
 * turning turn-trace events into spans and metrics (docs/telemetry.md). Invoked by the stack's
 * schedule with `{"hookgate":"outbox-sweep"}`, it sweeps the observer outbox instead.
 *
 * @example
 * export const handler = await createObserverFunction(runtime);
 */
export async function createObserverFunction(runtime: Runtime, options: ObserverFunctionOptions = {}): Promise<ObserverHandler> {
  const engine = options.engine ?? (await runtime.createEngine('observer'));
  const telemetry = options.telemetry === undefined ? await createObserverTelemetry(runtime, engine) : options.telemetry;
  const logger = runtime.logger('observer');
  const consumer = createObserverConsumer({
    engine,
    table: runtime.plane.idempotency,
    payloads: runtime.plane.payloads,
    logger,
    ...(telemetry ? { telemetry } : {}),
    // What observer-side hooks did goes into the emitting turn's trace (the console's timeline).
    around: traceObserverRuns(new DynamoTraceStore(runtime.plane.table), logger),
  });
  const { plane } = runtime;
  return async (event, context) => {
    // The stack's schedule (infra/lib/telemetry-resources.ts): publish what the outbox holds.
    if (isOutboxSweepEvent(event)) {
      const deadline = Date.now() + (context?.getRemainingTimeInMillis() ?? FUNCTION_TIMEOUT_SECONDS.observer * 1000) - 10_000;
      const sweep = await sweepOutbox({
        outbox: plane.outbox,
        republish: (entries) => plane.observerSink.republish(entries),
        deadline,
      });
      if (sweep.published > 0 || sweep.waiting > 0)
        logger.info(`observer outbox: published ${sweep.published} event(s); ${sweep.waiting} session(s) still waiting`);
      return { batchItemFailures: [] };
    }
    return consumer(event, context);
  };
}

/**
 * The observer side's telemetry for this deployment: OTLP traces and metrics to
 * `config.otlp`, EMF metrics in AWS; `telemetry.capture_content` read from the engine's
 * config.yaml at each event. Undefined when neither applies.
 *
 * @example
 * const telemetry = await createObserverTelemetry(runtime, engine, { metricsIntervalMs: 5_000 });
 */
export function createObserverTelemetry(
  runtime: Runtime,
  engine: Pick<HookEngine, 'config'>,
  options: { metricsIntervalMs?: number } = {},
): Promise<TelemetryExport | undefined> {
  return createTelemetryExport({
    ...(runtime.config.otlp ? { otlp: runtime.config.otlp } : {}),
    emf: runtime.config.runtime === 'aws',
    captureContent: () => captureContentFrom(engine.config),
    ...(options.metricsIntervalMs !== undefined ? { metricsIntervalMs: options.metricsIntervalMs } : {}),
  });
}
