import type { HookLogger } from '../hooks/hook-logger.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { createObserverFunction, createObserverTelemetry } from '../runtime/observer-function.ts';
import type { EngineHolder } from './engine-holder.ts';
import type { LocalAws } from './emulators.ts';
import { startOutboxSweepTimer } from './outbox-sweep-timer.ts';
import { startSqsPoller, type SqsPoller } from './sqs-poller.ts';
import type { StopSteps } from './stop-steps.ts';

/** How often the dev observer pushes OTLP metrics. */
const DEV_METRICS_INTERVAL_MS = 5_000;

export interface LocalObserverParts {
  runtime: Runtime;
  /** The engine the gateway and turns hold too; each batch runs on the engine current when it starts. */
  engine: EngineHolder;
  aws: Pick<LocalAws, 'eventsQueueUrl'>;
  /** Where the telemetry export and the sweeper register how they stop. */
  steps: StopSteps;
  logger: HookLogger;
  /** How often the outbox sweeper runs (the stack's schedule, locally). */
  outboxSweepMs: number;
  onError: (error: unknown) => void;
}

/**
 * `hookgate dev`'s observer side: the observer λ (`createObserverFunction`, the same handler)
 * behind a local poller of the events queue, the telemetry export (OTLP, with `--otlp` or
 * HOOKGATE_OTLP_ENDPOINT: here, never in the gateway or a turn), and on a timer what the
 * stack's schedule does, sweeping the observer outbox for events SNS did not take.
 *
 * @example
 * const observer = await startLocalObserver({ runtime, engine, aws, steps, logger, outboxSweepMs: 2_000, onError });
 * await observer.stop();
 */
export async function startLocalObserver(parts: LocalObserverParts): Promise<SqsPoller> {
  const { runtime, engine, steps } = parts;
  const telemetry = await createObserverTelemetry(runtime, engine, { metricsIntervalMs: DEV_METRICS_INTERVAL_MS });
  if (telemetry) steps.add('the telemetry export', () => telemetry.shutdown());
  const observer = await startSqsPoller({
    sqs: runtime.plane.clients.sqs,
    queueUrl: parts.aws.eventsQueueUrl,
    handler: engine.pinnedHandler(await createObserverFunction(runtime, { engine, telemetry: telemetry ?? null })),
    batchSize: 10,
    batchWindowMs: 50,
    onError: parts.onError,
  });
  const sweeper = startOutboxSweepTimer(runtime.plane, parts.logger, parts.outboxSweepMs);
  steps.add('the outbox sweeper', () => sweeper.stop());
  return observer;
}
