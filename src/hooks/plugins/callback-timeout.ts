import * as z from '../../validation/zod.ts';
import type { HookLogger } from '../hook-logger.ts';
import { isPlainObject } from '../python-truthiness.ts';

/** hook-semantics §5.8: an in-process callback gets this many seconds unless config.yaml says otherwise. */
export const DEFAULT_CALLBACK_TIMEOUT_SECONDS = 30;

const CallbackTimeoutSchema = z.number().check(z.positive());

/**
 * `plugins.callback_timeout` of config.yaml (seconds, per in-process callback; architecture
 * §4 "Interfaces added"). Absent → 30; anything but a positive number → a warning and 30.
 *
 * @example
 * readCallbackTimeoutSeconds({ plugins: { callback_timeout: 5 } }, logger); // 5
 */
export function readCallbackTimeoutSeconds(config: Record<string, unknown>, logger: HookLogger): number {
  const section = config.plugins;
  if (!isPlainObject(section) || section.callback_timeout === undefined || section.callback_timeout === null) {
    return DEFAULT_CALLBACK_TIMEOUT_SECONDS;
  }
  const parsed = CallbackTimeoutSchema.safeParse(section.callback_timeout);
  if (parsed.success) return parsed.data;
  logger.warn(
    `config.yaml: plugins.callback_timeout must be a positive number of seconds (got ${JSON.stringify(section.callback_timeout)}); ` +
      `using ${DEFAULT_CALLBACK_TIMEOUT_SECONDS}`,
  );
  return DEFAULT_CALLBACK_TIMEOUT_SECONDS;
}
