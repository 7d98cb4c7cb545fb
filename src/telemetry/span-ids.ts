import { createHash } from 'node:crypto';

const hex = (text: string, chars: number) => createHash('sha256').update(text).digest('hex').slice(0, chars);

/**
 * Deterministic OpenTelemetry ids: the same turn, envelope and operation always give the same
 * trace and span ids, so an event delivered twice (SQS is at least once) describes the same
 * spans, never a second set. (An all-zero id is invalid in OTLP; SHA-256 makes one practically
 * impossible.)
 *
 * @example
 * traceIdOf('turn_1');              // 32 hex characters
 * spanIdOf('env-1', 'op3');         // 16 hex characters
 */
export function traceIdOf(turnId: string): string {
  return hex(`hookgate:trace:${turnId}`, 32);
}

/** The span of one operation of one envelope. */
export function spanIdOf(envelopeId: string, operationId: string): string {
  return hex(`hookgate:span:${envelopeId}:${operationId}`, 16);
}

/** The root `invoke_agent` span of a turn (its first invocation); a resumed invocation hangs under it. */
export function turnRootSpanIdOf(turnId: string): string {
  return hex(`hookgate:root:${turnId}`, 16);
}
