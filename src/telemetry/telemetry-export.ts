import { ExportResultCode } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpConfig } from '../config/deployment-config.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { EmfTurnMetrics } from './emf-metrics.ts';
import { createOtlpExporters } from './otlp-exporters.ts';
import { METRIC_NAMESPACE, turnFigures, type TurnFigures } from './turn-metrics.ts';
import { TURN_TRACE_EVENT, TurnTracePayloadSchema } from './turn-trace-event.ts';
import { turnTraceSpans } from './turn-trace-spans.ts';

export class TelemetryExportError extends HookgateError {
  override readonly name = 'TelemetryExportError';
}

export interface TelemetryExportOptions {
  /** OTLP traces and metrics; absent = none. */
  otlp?: OtlpConfig;
  /** CloudWatch EMF metrics through Powertools (in AWS). */
  emf: boolean;
  /** telemetry.capture_content, asked per event (the dev server reloads config.yaml). */
  captureContent: () => boolean;
  /**
   * How often OTLP metrics are pushed; absent = only on `flush()` (a Lambda function flushes
   * after each batch, since it may be frozen between invocations).
   */
  metricsIntervalMs?: number;
  /** `service.name` of the resource; default `hookgate`. */
  serviceName?: string;
}

/** The observer side's telemetry: what the consumer calls for each event it handles. */
export interface TelemetryExport {
  /** True for the event types that carry telemetry (`hookgate:turn_trace`). */
  handles(type: string): boolean;
  /** Exports the event's spans (awaited: a failure throws, so the record is retried) and records its metrics. */
  record(envelopeId: string, payload: Record<string, unknown>): Promise<void>;
  /** Pushes the metrics recorded so far (EMF lines, OTLP metrics). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Builds the observer side's telemetry (docs/telemetry.md): spans through the OpenTelemetry
 * SDK's OTLP exporter, metrics as EMF through Powertools Metrics and through the SDK's meter
 * to OTLP. Undefined when there is nothing to do (no endpoint, no EMF). Runs only where
 * observers run — the observer function or `hookgate dev`'s observer — never in the gateway or
 * the turn.
 *
 * @example
 * const telemetry = await createTelemetryExport({ otlp: config.otlp, emf: config.runtime === 'aws', captureContent: () => false });
 */
export async function createTelemetryExport(options: TelemetryExportOptions): Promise<TelemetryExport | undefined> {
  if (!options.otlp && !options.emf) return undefined;
  const resource = resourceFromAttributes({
    'service.name': options.serviceName ?? 'hookgate',
    'service.namespace': METRIC_NAMESPACE,
  });
  const exporters = options.otlp ? await createOtlpExporters(options.otlp) : undefined;
  const emf = options.emf ? new EmfTurnMetrics() : undefined;
  const otlpMetrics = exporters ? otlpMeter(exporters.metrics, resource, options.metricsIntervalMs) : undefined;
  return {
    handles: (type) => type === TURN_TRACE_EVENT,
    async record(envelopeId, raw) {
      const parsed = TurnTracePayloadSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new TelemetryExportError(
          `${TURN_TRACE_EVENT} ${envelopeId}: not a turn trace: ${issue?.path.join('.')}: ${issue?.message}`,
        );
      }
      if (exporters)
        await exportSpans(
          exporters.traces,
          turnTraceSpans(envelopeId, parsed.data, { resource, captureContent: options.captureContent() }),
        );
      const figures = turnFigures(parsed.data);
      emf?.record(figures);
      otlpMetrics?.record(figures);
    },
    async flush() {
      emf?.flush();
      await otlpMetrics?.flush();
    },
    async shutdown() {
      emf?.flush();
      await otlpMetrics?.shutdown();
      await exporters?.traces.shutdown();
    },
  };
}

function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) => {
    exporter.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) resolve();
      else
        reject(
          new TelemetryExportError(`OTLP span export failed: ${result.error?.message ?? 'unknown error'}`, {
            cause: result.error,
          }),
        );
    });
  });
}

/** The SDK's meter over the OTLP metric exporter, with hookgate's instruments (docs/telemetry.md §3). */
function otlpMeter(
  exporter: ConstructorParameters<typeof PeriodicExportingMetricReader>[0]['exporter'],
  resource: ReturnType<typeof resourceFromAttributes>,
  intervalMs?: number,
) {
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: intervalMs ?? 2_147_483_647 });
  const provider = new MeterProvider({ resource, readers: [reader] });
  const meter = provider.getMeter(METRIC_NAMESPACE);
  const hookCalls = meter.createCounter('hookgate.hook.calls', { description: 'Hook callback calls' });
  const hookBlocks = meter.createCounter('hookgate.hook.blocks', { description: 'Hook calls that blocked' });
  const hookErrors = meter.createCounter('hookgate.hook.errors', { description: 'Hook calls that failed' });
  const hookLatency = meter.createHistogram('hookgate.hook.duration', { description: 'Hook call duration', unit: 'ms' });
  const turns = meter.createCounter('hookgate.turns', { description: 'Turn invocations' });
  const turnDuration = meter.createHistogram('hookgate.turn.duration', { description: 'Turn invocation duration', unit: 'ms' });
  const undelivered = meter.createCounter('hookgate.replies.undelivered', { description: 'Replies the platform never took' });
  return {
    record(figures: TurnFigures) {
      for (const h of figures.hooks) {
        const attributes = { 'hookgate.hook.name': h.hook, 'hookgate.hook.callback': h.callback };
        hookCalls.add(h.calls, attributes);
        hookBlocks.add(h.blocks, attributes);
        hookErrors.add(h.errors, attributes);
        for (const value of h.latencies) hookLatency.record(value, attributes);
      }
      turns.add(1, { 'hookgate.turn.outcome': figures.outcome });
      turnDuration.record(figures.turnDurationMs, { 'hookgate.turn.outcome': figures.outcome });
      undelivered.add(figures.undeliveredReplies);
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
