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

/**
 * Runs `work` with the observer's telemetry export set to `on`, then waits until the observer
 * has taken every event published so far, so that no phase's events are exported (or not) in
 * the next one. Returns how many turn-trace events the phase published.
 */
export async function exportPhase<T>(observer: ObserverProcess, sink: CountingSink, on: boolean, work: () => Promise<T>): Promise<{ result: T; turnTraces: number }> {
  await observer.setExport(on);
  const before = sink.turnTraces;
  const result = await work();
  await until(() => observer.taken() >= sink.published, 'the observer to take every published event', { timeoutMs: 300_000 });
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
    throw new Error(`export did not happen: ${expected} turn traces published with export on, ${exported} exported, ${otlp.traces.posts} span POSTs received`);
  }
  return (
    `${exported} turn traces exported, ${otlp.traces.posts} span POSTs (${Math.round(otlp.traces.bytes / otlp.traces.posts)} B each), ` +
    `${otlp.metrics.posts} metric POSTs (${Math.round(otlp.metrics.bytes / Math.max(1, otlp.metrics.posts))} B each) received`
  );
}
