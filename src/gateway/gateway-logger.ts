import { Logger } from '@aws-lambda-powertools/logger';
import { redactSecrets } from '../secrets/redact-secrets.ts';

type PowertoolsLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const LEVELS: Record<string, PowertoolsLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', warning: 'WARN', error: 'ERROR', silent: 'SILENT' };

/**
 * The gateway's structured JSON logger (Powertools): one line per entry with `platform`,
 * `delivery_id` and `session_key` where known. Level from HOOKGATE_LOG_LEVEL (default info).
 * Every string in a line (message, attributes, error messages and stacks) is redacted
 * (`redactSecrets`: known secrets and their encodings, common secret shapes).
 * It also serves as the engine's `HookLogger` (same method names).
 *
 * @example
 * const logger = createGatewayLogger();
 * logger.info('turn enqueued', { platform: 'telegram', delivery_id, session_key });
 */
export function createGatewayLogger(env: NodeJS.ProcessEnv = process.env, serviceName = 'hookgate-gateway'): Logger {
  const level = LEVELS[(env.HOOKGATE_LOG_LEVEL ?? '').trim().toLowerCase()] ?? 'INFO';
  return new Logger({
    serviceName,
    logLevel: level,
    jsonReplacerFn: (_key, value) => (typeof value === 'string' ? redactSecrets(value) : value),
  });
}
