/** The levels `HOOKGATE_LOG_LEVEL` takes: a logger prints its level and the ones above; `silent` prints nothing. */
export const LOG_THRESHOLDS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogThreshold = (typeof LOG_THRESHOLDS)[number];

/**
 * Reads a `HOOKGATE_LOG_LEVEL` value: case and surrounding spaces ignored, `warning` read as
 * `warn`; `undefined` when it is not one of LOG_THRESHOLDS. The deployment config validates
 * the variable with it (a bad value fails the cold start); the hook engine's stderr logger,
 * which has no config, falls back to `info`.
 *
 * @example
 * parseLogThreshold(' WARNING ') // 'warn'
 */
export function parseLogThreshold(raw: string | undefined): LogThreshold | undefined {
  const level = (raw ?? '')
    .trim()
    .toLowerCase()
    .replace(/^warning$/, 'warn');
  return (LOG_THRESHOLDS as readonly string[]).includes(level) ? (level as LogThreshold) : undefined;
}
