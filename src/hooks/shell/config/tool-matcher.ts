import type { HookLogger } from '../../hook-logger.ts';
import { errorText } from '../../../errors/error-text.ts';

/**
 * Compiles a trimmed, non-empty matcher (hook-semantics §3.3) into a full-match test of a
 * tool name. An ECMAScript regex, anchored at both ends; if it does not compile, literal
 * equality with a warning.
 *
 * @example
 * const m = compileToolMatcher('terminal|file', logger);
 * m('file') // true
 * m('file_read') // false
 */
export function compileToolMatcher(pattern: string, logger: HookLogger): (toolName: unknown) => boolean {
  let anchored: RegExp;
  try {
    new RegExp(pattern); // compiled on its own first, so that the error names the user's pattern
    anchored = new RegExp(`^(?:${pattern})$`);
  } catch (error) {
    logger.warn(`shell hook matcher '${pattern}' is invalid (${errorText(error)}); treating it as literal equality`);
    return (toolName) => typeof toolName === 'string' && toolName === pattern;
  }
  return (toolName) => typeof toolName === 'string' && anchored.test(toolName);
}

/** No matcher: always matches, even when the kwargs carry no tool name (§3.3). */
export const MATCH_ALL = (_toolName: unknown): boolean => true;
