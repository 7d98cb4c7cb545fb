/**
 * The event the stack's schedule sends the observer function to run an outbox sweep
 * (infra/lib/telemetry-resources.ts); anything else it receives is an SQS batch.
 */
export const OUTBOX_SWEEP_EVENT = { hookgate: 'outbox-sweep' } as const;

/** True for the scheduled sweep's event. */
export function isOutboxSweepEvent(event: unknown): boolean {
  return (
    typeof event === 'object' && event !== null && (event as { hookgate?: unknown }).hookgate === OUTBOX_SWEEP_EVENT.hookgate
  );
}
