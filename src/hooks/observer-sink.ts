/**
 * Where observer hooks run is not the engine's decision (architecture §1): by default they
 * run in-process at once; the pipeline supplies a sink that publishes them to SNS/SQS, and
 * the observer consumer calls `HookEngine.runObservers` to run them there.
 */

/** One observer event as the engine hands it over; the pipeline wraps it in envelope v1. */
export interface ObserverEvent {
  /** Caller-chosen id (dedup key); the sink assigns one when absent. */
  readonly id?: string;
  /** An observer plugin-hook name (`post_tool_call`) or a gateway event name (`agent:step`). */
  readonly type: string;
  /** The kwargs (plugin hooks, telemetry tag included) or the context (gateway events). */
  readonly payload: Record<string, unknown>;
  readonly session_id?: string;
  readonly turn_id?: string;
  /** Its hooks already ran where it was emitted: consumers other than telemetry skip it. */
  readonly ran_at_source?: boolean;
}

export interface ObserverSink {
  /**
   * Durably hands the events over, in order, and resolves with their ids.
   * Rejects when they could not be handed over, so the caller can answer 5xx upstream.
   */
  publish(events: readonly ObserverEvent[]): Promise<string[]>;
}
