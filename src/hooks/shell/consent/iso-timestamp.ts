/**
 * The allowlist's timestamp form (hook-semantics §3.9): UTC `YYYY-MM-DDTHH:MM:SS`, then
 * `.` + exactly 6 digits when the sub-second part is non-zero, then `Z`.
 *
 * @example
 * formatIsoMicros(1_772_366_405_123_456n) // '2026-03-01T12:00:05.123456Z' (µs since the epoch)
 */
export function formatIsoMicros(microsSinceEpoch: bigint): string {
  const seconds = microsSinceEpoch / 1_000_000n - (microsSinceEpoch % 1_000_000n < 0n ? 1n : 0n);
  const micros = microsSinceEpoch - seconds * 1_000_000n;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return micros === 0n ? `${base}Z` : `${base}.${micros.toString().padStart(6, '0')}Z`;
}

/** Now, in microseconds since the epoch (sub-millisecond from the monotonic clock's origin). */
export function nowMicros(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
}

/** Nanoseconds (as `fs.stat` with `bigint` gives them) rounded to microseconds. */
export function nanosToMicros(nanos: bigint): bigint {
  return (nanos + 500n) / 1000n;
}

/**
 * Parses an allowlist timestamp into microseconds, for comparing instants (§5.7: never as
 * strings). Accepts any ISO-8601 form with up to 6 fraction digits; `undefined` if invalid.
 */
export function parseIsoMicros(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3] ?? 'Z'}`);
  if (Number.isNaN(ms)) return undefined;
  const fraction = BigInt((m[2] ?? '').padEnd(6, '0').slice(0, 6) || '0');
  return BigInt(ms) * 1000n + fraction;
}
