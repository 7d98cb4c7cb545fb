import { HookgateError } from '../errors/hookgate-error.ts';

/**
 * A deployment variable is present but malformed. The message names the variable, never
 * its value (it may be a secret).
 *
 * @example
 * throw new ConfigError('SLACK_API_BASE_URL', 'must be an http(s) URL');
 */
export class ConfigError extends HookgateError {
  override readonly name = 'ConfigError';

  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable} ${problem}`);
  }
}
