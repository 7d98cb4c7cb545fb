import type { Logger } from '@aws-lambda-powertools/logger';
import { createHookgateLogger } from '../logging/hookgate-logger.ts';

/**
 * The gateway's logger: hookgate's one log format (`logging/hookgate-logger.ts`: JSON in
 * Lambda and off a terminal, readable on one), with `platform`, `delivery_id`, `chat_id` and
 * `turn_id` where known. Every string in a line is redacted (`redactSecrets`: known secrets
 * and their encodings, common secret shapes). It also serves as the engine's `HookLogger`
 * (same method names).
 *
 * @example
 * const logger = createGatewayLogger();
 * logger.info('turn enqueued', { platform: 'telegram', delivery_id, session_key });
 */
export function createGatewayLogger(env: NodeJS.ProcessEnv = process.env, serviceName = 'hookgate-gateway'): Logger {
  return createHookgateLogger(env, serviceName);
}
