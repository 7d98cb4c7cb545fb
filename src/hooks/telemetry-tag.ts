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
  // Object.assign *sets* each key: an own `__proto__` key (JSON.parse makes one from outside
  // input) would become the copy's prototype instead of a key. The literal defines keys.
  if (Object.hasOwn(kwargs, '__proto__')) return { ...kwargs, telemetry_schema_version: TELEMETRY_SCHEMA_VERSION };
  // Otherwise not that literal: V8 11 (Node 20) builds a spread followed by a key on a slow path
  // (≈ 0.9 µs for a tool call's kwargs) and leaves an object every per-callback copy is slow to clone
  // (docs/performance.md, engine-invoke). Object.assign then one store is fast on Node 20 and 22 alike.
  const tagged = Object.assign({}, kwargs);
  tagged.telemetry_schema_version = TELEMETRY_SCHEMA_VERSION;
  return tagged;
}
