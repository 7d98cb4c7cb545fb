import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ObserverEvent, ObserverSink } from '../../src/hooks/observer-sink.ts';
import { TURN_TRACE_EVENT } from '../../src/telemetry/turn-trace-event.ts';
import { until } from '../../test/support/until.ts';
import type { ObserverProcess } from './observer-process.ts';
import type { OtlpCounter } from './otlp-counter.ts';

/** An observer sink that counts what it published (all events, and turn-trace events). */
export interface CountingSink extends ObserverSink {
  published: number;
  turnTraces: number;
}

/** Wraps `sink` so the export benches know how many events the observer has to drain. */
export function countingSink(sink: ObserverSink): CountingSink {
  const counted: CountingSink = {
    published: 0,
    turnTraces: 0,
    async publish(events: readonly ObserverEvent[]) {
      const ids = await sink.publish(events);
      counted.published += events.length;
      counted.turnTraces += events.filter((e) => e.type === TURN_TRACE_EVENT).length;
      return ids;
    },
  };
  return counted;
}

/** The events queue the observer drains, to wait on. */
export interface EventsQueue {
  sqs: SQSClient;
  url: string;
}

/**
 * True when the events queue holds nothing, visible or in flight. Counting what the observer
 * took is not enough: on a loaded machine an SDK retry of a publish the emulator had already
 * taken duplicates an envelope, the copy fails while the original holds the idempotency lock,
 * and after five quick receives it goes to the DLQ without being taken.
 */
async function drained(queue: EventsQueue): Promise<boolean> {
  const { Attributes } = await queue.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queue.url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Attributes?.ApproximateNumberOfMessages === '0' && Attributes?.ApproximateNumberOfMessagesNotVisible === '0';
}

/**
 * Runs `work` with the observer's telemetry export set to `on`, then waits until the observer
 * has drained the events queue, so that no phase's events are exported (or not) in the next
 * one. Returns how many turn-trace events the phase published.
 */
export async function exportPhase<T>(
  observer: ObserverProcess,
  sink: CountingSink,
  queue: EventsQueue,
  on: boolean,
  work: () => Promise<T>,
): Promise<{ result: T; turnTraces: number }> {
  await observer.setExport(on);
  const before = sink.turnTraces;
  const result = await work();
  await until(
    async () => observer.taken() >= sink.published || (await drained(queue)),
    'the observer to drain the events queue',
    { timeoutMs: 300_000, everyMs: 200 },
  ).catch((error: Error) => {
    throw new Error(
      `${error.message} (export ${on ? 'on' : 'off'}: ${observer.taken()} of ${sink.published} published events taken, ${observer.exported()} turn traces exported)`,
    );
  });
  return { result, turnTraces: sink.turnTraces - before };
}

/**
 * Throws unless the export-on phases were really exported: every turn-trace event they
 * published recorded by the telemetry export, and at least that many span POSTs received.
 * Returns a note for the figure.
 */
export function checkExported(observer: ObserverProcess, otlp: OtlpCounter, expected: number): string {
  const exported = observer.exported();
  if (expected === 0 || exported < expected || otlp.traces.posts < exported) {
    throw new Error(
      `export did not happen: ${expected} turn traces published with export on, ${exported} exported, ${otlp.traces.posts} span POSTs received`,
    );
  }
  return (
    `${exported} turn traces exported, ${otlp.traces.posts} span POSTs (${Math.round(otlp.traces.bytes / otlp.traces.posts)} B each), ` +
    `${otlp.metrics.posts} metric POSTs (${Math.round(otlp.metrics.bytes / Math.max(1, otlp.metrics.posts))} B each) received`
  );
}
