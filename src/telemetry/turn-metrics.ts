import type { TurnTracePayload } from './turn-trace-event.ts';

/** The CloudWatch namespace (EMF) and OTLP meter name of every hookgate metric. */
export const METRIC_NAMESPACE = 'hookgate';

/** One hook callback's figures within one turn-trace event. */
export interface HookFigures {
  hook: string;
  /** The callback (`plugin`, `shell`, `gateway` name), or `-` when nobody ran inline. */
  callback: string;
  calls: number;
  blocks: number;
  errors: number;
  /** Each call's duration, ms. */
  latencies: number[];
}

/** What a turn-trace event contributes to the metrics (docs/telemetry.md §3). */
export interface TurnFigures {
  outcome: string;
  turnDurationMs: number;
  undeliveredReplies: number;
  hooks: HookFigures[];
}

/**
 * Sums one turn-trace event into metric figures: per hook and callback the calls, blocks
 * (a `block…` decision), errors (an `error: …` decision) and latencies; the turn's outcome,
 * duration and undelivered replies. Calls no callback answered (`source` `-`: an emission
 * handed to the pipeline, a call site that failed) are not hook callback calls and are left out.
 *
 * @example
 * const figures = turnFigures(payload);
 */
export function turnFigures(payload: TurnTracePayload): TurnFigures {
  const byCallback = new Map<string, HookFigures>();
  for (const operation of payload.operations) {
    // A callback that did not run (`skipped: matcher`, …) is not a call: it would count 0 ms into the latencies.
    if (operation.kind !== 'hook' || operation.source === '-' || operation.decision.startsWith('skipped')) continue;
    const key = `${operation.hook}\u0000${operation.callback}`;
    let figures = byCallback.get(key);
    if (!figures) {
      figures = { hook: operation.hook, callback: operation.callback, calls: 0, blocks: 0, errors: 0, latencies: [] };
      byCallback.set(key, figures);
    }
    figures.calls += 1;
    if (operation.decision.startsWith('block')) figures.blocks += 1;
    if (operation.decision.startsWith('error')) figures.errors += 1;
    figures.latencies.push(operation.duration_ms);
  }
  return {
    outcome: payload.outcome,
    turnDurationMs: payload.duration_ms,
    undeliveredReplies: payload.undelivered_replies,
    hooks: [...byCallback.values()],
  };
}
