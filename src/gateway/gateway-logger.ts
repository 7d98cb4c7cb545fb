import { Logger } from '@aws-lambda-powertools/logger';

type PowertoolsLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const LEVELS: Record<string, PowertoolsLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', warning: 'WARN', error: 'ERROR', silent: 'SILENT' };

/**
 * The gateway's structured JSON logger (Powertools): one line per entry with `platform`,
 * `delivery_id` and `session_key` where known. Level from HOOKGATE_LOG_LEVEL (default info).
 * It also serves as the engine's `HookLogger` (same method names).
 *
 * @example
 * const logger = createGatewayLogger();
 * logger.info('turn enqueued', { platform: 'telegram', delivery_id, session_key });
 */
export function createGatewayLogger(env: NodeJS.ProcessEnv = process.env, serviceName = 'hookgate-gateway'): Logger {
  const level = LEVELS[(env.HOOKGATE_LOG_LEVEL ?? '').trim().toLowerCase()] ?? 'INFO';
  return new Logger({ serviceName, logLevel: level });
}
