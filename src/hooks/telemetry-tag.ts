import { TELEMETRY_SCHEMA_VERSION } from './catalogue.ts';

/**
 * Adds `telemetry_schema_version` as the **last** key when the caller did not supply it
 * (hook-semantics §1.3). Returns `kwargs` itself when the key is already there.
 *
 * @example
 * withTelemetryTag({ a: 1 }); // { a: 1, telemetry_schema_version: 'hermes.observer.v1' }
 */
export function withTelemetryTag(kwargs: Record<string, unknown>): Record<string, unknown> {
  if (Object.hasOwn(kwargs, 'telemetry_schema_version')) return kwargs;
  return { ...kwargs, telemetry_schema_version: TELEMETRY_SCHEMA_VERSION };
}
