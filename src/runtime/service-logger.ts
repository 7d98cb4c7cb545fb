import type { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevelName } from '../config/deployment-config.ts';
import { createHookgateLogger } from '../logging/hookgate-logger.ts';

/**
 * A function's logger in hookgate's one log format (`logging/hookgate-logger.ts`): JSON in
 * Lambda and off a terminal, readable with colour on one; `platform`, `delivery_id`,
 * `chat_id` and `turn_id` where known; at the deployment's `HOOKGATE_LOG_LEVEL`. Every string
 * in a line is redacted (`redactSecrets`). It also serves as the engine's `HookLogger`.
 *
 * @example
 * const logger = createServiceLogger('hookgate-gateway', config.logLevel);
 * logger.info('turn enqueued', { platform: 'telegram', delivery_id, session_key });
 */
export function createServiceLogger(serviceName: string, level: LogLevelName = 'info'): Logger {
  return createHookgateLogger(serviceName, level);
}
