import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMESPACE, type TurnFigures } from './turn-metrics.ts';

/**
 * Writes turn figures as CloudWatch embedded metric format through Powertools Metrics
 * (namespace `hookgate`, service `observer`): one EMF document per hook (dimension `hook`),
 * one per hook callback (dimensions `hook`, `callback`) and one for the turns, each printed to
 * the function's log when `flush()` is called (CloudWatch turns them into metrics; p50/p95
 * are statistics of the latency values).
 *
 * @example
 * const emf = new EmfTurnMetrics();
 * emf.record(turnFigures(payload));
 * emf.flush();
 */
export class EmfTurnMetrics {
  private pending: TurnFigures[] = [];

  record(figures: TurnFigures): void {
    this.pending.push(figures);
  }

  flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const perHook = new Map<
      string,
      { hook: string; callback?: string; calls: number; blocks: number; errors: number; latencies: number[] }
    >();
    const add = (key: string, dims: { hook: string; callback?: string }, h: TurnFigures['hooks'][number]) => {
      const entry = perHook.get(key) ?? { ...dims, calls: 0, blocks: 0, errors: 0, latencies: [] };
      entry.calls += h.calls;
      entry.blocks += h.blocks;
      entry.errors += h.errors;
      entry.latencies.push(...h.latencies);
      perHook.set(key, entry);
    };
    for (const figures of batch) {
      for (const h of figures.hooks) {
        add(`h\u0000${h.hook}`, { hook: h.hook }, h);
        add(`c\u0000${h.hook}\u0000${h.callback}`, { hook: h.hook, callback: h.callback }, h);
      }
    }
    for (const entry of perHook.values()) {
      const dimensions = { hook: entry.hook, ...(entry.callback !== undefined ? { callback: entry.callback } : {}) };
      // EMF takes at most 100 values per metric and document; publishing clears the dimensions.
      for (let at = 0; at === 0 || at < entry.latencies.length; at += 100) {
        const metrics = metricsFor(dimensions);
        if (at === 0) {
          metrics.addMetric('HookCalls', MetricUnit.Count, entry.calls);
          metrics.addMetric('HookBlocks', MetricUnit.Count, entry.blocks);
          metrics.addMetric('HookErrors', MetricUnit.Count, entry.errors);
        }
        for (const value of entry.latencies.slice(at, at + 100)) metrics.addMetric('HookLatency', MetricUnit.Milliseconds, value);
        metrics.publishStoredMetrics();
      }
    }
    const turns = metricsFor({});
    for (const figures of batch) {
      turns.addMetric('Turns', MetricUnit.Count, 1);
      turns.addMetric('TurnDuration', MetricUnit.Milliseconds, figures.turnDurationMs);
      turns.addMetric('UndeliveredReplies', MetricUnit.Count, figures.undeliveredReplies);
      if (figures.outcome === 'failed') turns.addMetric('TurnsFailed', MetricUnit.Count, 1);
    }
    turns.publishStoredMetrics();
  }
}

function metricsFor(dimensions: Record<string, string>): Metrics {
  const metrics = new Metrics({ namespace: METRIC_NAMESPACE, serviceName: 'observer' });
  metrics.addDimensions(dimensions);
  return metrics;
}
