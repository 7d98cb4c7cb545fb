import { DEFAULT_CALLBACK_TIMEOUT_SECONDS } from '../callback-deadline.ts';
import type { HookLogger } from '../hook-logger.ts';
import { isPlainObject } from '../python-truthiness.ts';

export interface PluginsConfig {
  readonly enabled: readonly string[];
  readonly disabled: readonly string[];
}

/**
 * `plugins.enabled` / `plugins.disabled` of config.yaml (§1.2). A list that is not a list
 * of strings is reported and its non-string items ignored; absent lists are empty.
 *
 * @example
 * readPluginsConfig({ plugins: { enabled: ['audit'] } }, logger); // { enabled: ['audit'], disabled: [] }
 */
export function readPluginsConfig(config: Record<string, unknown>, logger: HookLogger): PluginsConfig {
  const section = config.plugins;
  if (section === undefined || section === null) return { enabled: [], disabled: [] };
  if (!isPlainObject(section)) {
    logger.warn('config.yaml: plugins must be a mapping with enabled/disabled lists; no plugin is enabled');
    return { enabled: [], disabled: [] };
  }
  return { enabled: nameList(section, 'enabled', logger), disabled: nameList(section, 'disabled', logger) };
}

function nameList(section: Record<string, unknown>, key: 'enabled' | 'disabled', logger: HookLogger): string[] {
  const value = section[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    logger.warn(`config.yaml: plugins.${key} must be a list of plugin names; ignoring it`);
    return [];
  }
  const names: string[] = [];
  value.forEach((item, index) => {
    if (typeof item === 'string') names.push(item);
    else logger.warn(`config.yaml: plugins.${key}[${index}] must be a plugin name (a string); ignoring it`);
  });
  return names;
}

/**
 * `plugins.callback_timeout` (hook-semantics §5.8): seconds an in-process callback (plugin
 * hook or gateway event handler) may take before it counts as failed. A positive number;
 * anything else draws a warning and the default (30).
 *
 * @example
 * callbackTimeoutSeconds({ plugins: { callback_timeout: 5 } }, logger); // 5
 */
export function callbackTimeoutSeconds(config: Record<string, unknown>, logger: HookLogger): number {
  const section = config.plugins;
  const value = isPlainObject(section) ? section.callback_timeout : undefined;
  if (value === undefined || value === null) return DEFAULT_CALLBACK_TIMEOUT_SECONDS;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  logger.warn(
    `config.yaml: plugins.callback_timeout must be a positive number of seconds (got ${JSON.stringify(value)}); using ${DEFAULT_CALLBACK_TIMEOUT_SECONDS}`,
  );
  return DEFAULT_CALLBACK_TIMEOUT_SECONDS;
}
