import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevelName } from '../config/deployment-config.ts';
import { redactSecrets } from '../secrets/redact-secrets.ts';

const POWERTOOLS_LEVEL = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'SILENT' } as const;

/**
 * A function's structured JSON logger (Powertools): one line per entry with `platform`,
 * `delivery_id` and `session_key` where known, at the deployment's `HOOKGATE_LOG_LEVEL`.
 * Every string in a line (message, attributes, error messages and stacks) is redacted
 * (`redactSecrets`: known secrets and their encodings, common secret shapes).
 * It also serves as the engine's `HookLogger` (same method names).
 *
 * @example
 * const logger = createServiceLogger('hookgate-gateway', config.logLevel);
 * logger.info('turn enqueued', { platform: 'telegram', delivery_id, session_key });
 */
export function createServiceLogger(serviceName: string, level: LogLevelName = 'info'): Logger {
  return new Logger({
    serviceName,
    logLevel: POWERTOOLS_LEVEL[level],
    jsonReplacerFn: (_key, value) => (typeof value === 'string' ? redactSecrets(value) : value),
  });
}
