import type { EnvReader, InboundSettings } from './platform.ts';

/**
 * All of `names` or nothing: their values, or the ones missing. `optional` variables are read
 * too, so a malformed one is reported even when the platform is off.
 *
 * @example
 * const group = readGroup(read, ['SLACK_SIGNING_SECRET', 'SLACK_BOT_TOKEN'], ['SLACK_API_BASE_URL']);
 * if ('config' in group) group.config.SLACK_BOT_TOKEN;
 */
export function readGroup<K extends string>(
  read: EnvReader,
  names: readonly K[],
  optional: readonly string[] = [],
): InboundSettings<Record<K, string>> {
  const values = Object.fromEntries(names.map((name) => [name, read(name)])) as Record<K, string | undefined>;
  for (const name of optional) read(name);
  const missing = names.filter((name) => values[name] === undefined);
  return missing.length > 0 ? { missing } : { config: values as Record<K, string> };
}
