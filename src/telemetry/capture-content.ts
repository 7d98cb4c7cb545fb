import * as z from '../validation/zod.ts';

const TelemetrySection = z.looseObject({ capture_content: z.optional(z.boolean()) });

/**
 * `telemetry.capture_content` from config.yaml (the hooks home's parsed mapping): whether
 * spans carry message text, tool arguments and results. Off unless it is literally `true`:
 * a missing or malformed section keeps content out (safe default, docs/telemetry.md).
 *
 * @example
 * captureContentFrom({ telemetry: { capture_content: true } }); // true
 */
export function captureContentFrom(config: Readonly<Record<string, unknown>> | undefined): boolean {
  const parsed = TelemetrySection.safeParse(config?.telemetry);
  return parsed.success && parsed.data.capture_content === true;
}
