import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpConfig } from '../config/deployment-config.ts';

/**
 * The OpenTelemetry SDK's own OTLP/HTTP exporters for `HOOKGATE_OTLP_ENDPOINT`: protobuf (the
 * default) or JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), to `<endpoint>/v1/traces` and
 * `<endpoint>/v1/metrics`, with `HOOKGATE_OTLP_HEADERS` on every request. Loaded on first use:
 * only the observer function exports.
 *
 * @example
 * const { traces, metrics } = await createOtlpExporters({ endpoint: 'http://127.0.0.1:4318', headers: {}, protocol: 'http/protobuf' });
 */
export async function createOtlpExporters(otlp: OtlpConfig): Promise<{ traces: SpanExporter; metrics: PushMetricExporter }> {
  const options = (signal: 'traces' | 'metrics') => ({
    url: `${otlp.endpoint}/v1/${signal}`,
    headers: { ...otlp.headers },
    timeoutMillis: 10_000,
  });
  if (otlp.protocol === 'http/json') {
    const [{ OTLPTraceExporter }, { OTLPMetricExporter }] = await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
    ]);
    return { traces: new OTLPTraceExporter(options('traces')), metrics: new OTLPMetricExporter(options('metrics')) };
  }
  const [{ OTLPTraceExporter }, { OTLPMetricExporter }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/exporter-metrics-otlp-proto'),
  ]);
  return { traces: new OTLPTraceExporter(options('traces')), metrics: new OTLPMetricExporter(options('metrics')) };
}
