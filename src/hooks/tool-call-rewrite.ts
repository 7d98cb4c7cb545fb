import type { RegisteredCallback } from './callback-registry.ts';
import type { HookLogger } from './hook-logger.ts';
import { isPlainObject } from './python-truthiness.ts';
import { errorText } from '../errors/error-text.ts';

/** A `pre_tool_call` result that replaces the call's arguments (hook-semantics §5.10). */
export interface RewriteDirective {
  action: 'rewrite';
  args: Record<string, unknown>;
}

/**
 * Checks rewritten arguments against the tool's argument schema: undefined when they fit,
 * else why not. Given by the call site, which knows the tools; the engine knows none.
 */
export type ArgsValidator = (args: Record<string, unknown>) => string | undefined;

/**
 * True for `{"action": "rewrite", "args": {…}}` with `args` a JSON object.
 *
 * @example
 * isRewrite({ action: 'rewrite', args: { command: 'ls' } }) // true
 */
export function isRewrite(value: unknown): value is RewriteDirective {
  try {
    return isPlainObject(value) && value.action === 'rewrite' && isPlainObject(value.args);
  } catch {
    return false;
  }
}

/**
 * One callback's `pre_tool_call` result, applied (hook-semantics §5.10): a rewrite whose
 * arguments fit the tool replaces `args` for the callbacks after it; one that does not fit
 * is a failed run — a warning, then "no value", or the fail-closed block for a `fail_closed`
 * hook. Any other result passes through unchanged.
 *
 * @example
 * const { value, kwargs: next } = applyRewrite(callback, result, kwargs, validate, logger);
 */
export function applyRewrite(
  callback: RegisteredCallback,
  value: unknown,
  kwargs: Record<string, unknown>,
  validate: ArgsValidator | undefined,
  logger: HookLogger,
): { value: unknown; kwargs: Record<string, unknown> } {
  if (!isRewrite(value)) return { value, kwargs };
  const copy = copyOf(value.args);
  const problem = 'problem' in copy ? copy.problem : validate?.(copy.args);
  if (problem === undefined && 'args' in copy)
    return { value: { action: 'rewrite', args: copy.args }, kwargs: { ...kwargs, args: copy.args } };
  logger.warn(
    `hook pre_tool_call: callback ${callback.name} rewrote the arguments of ${String(kwargs.tool_name)} into ones the tool does not take (${problem}); the rewrite is ignored`,
  );
  if (callback.failClosedAs !== undefined) {
    return {
      value: {
        action: 'block',
        message: `hook ${callback.failClosedAs} failed closed: rewritten arguments do not fit the tool (${problem})`,
      },
      kwargs,
    };
  }
  return { value: undefined, kwargs };
}

/** The call's own copy of rewritten arguments, or why there is none (a function, a throwing getter). */
function copyOf(args: Record<string, unknown>): { args: Record<string, unknown> } | { problem: string } {
  try {
    return { args: structuredClone(args) };
  } catch (error) {
    return { problem: `they cannot be copied: ${errorText(error)}` };
  }
}

/**
 * The arguments the call runs with after every `pre_tool_call` result: the last rewrite's,
 * or undefined when none rewrote them.
 *
 * @example
 * rewrittenArgs([{ action: 'rewrite', args: { command: 'ls -la' } }]) // { command: 'ls -la' }
 */
export function rewrittenArgs(results: readonly unknown[]): Record<string, unknown> | undefined {
  let args: Record<string, unknown> | undefined;
  for (const result of results) if (isRewrite(result)) args = result.args;
  return args;
}
