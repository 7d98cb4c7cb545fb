import { blockMessage, firstNonEmptyString, firstString, joinLlmContext } from '../../hooks/aggregate/index.ts';
import { rewrittenArgs } from '../../hooks/tool-call-rewrite.ts';

/**
 * A short word for what a decision hook's results mean at its call site, for traces.
 *
 * @example
 * describeDecision('pre_tool_call', [{ action: 'block', message: 'no' }]) // 'block: no'
 */
export function describeDecision(hook: string, results: readonly unknown[]): string {
  switch (hook) {
    case 'pre_tool_call': {
      const message = blockMessage(results);
      if (message !== undefined) return `block: ${message}`;
      return rewrittenArgs(results) === undefined ? 'allow' : 'rewrite';
    }
    case 'pre_llm_call': {
      const context = joinLlmContext(results);
      return context === undefined ? 'no context' : `context (${context.length} chars)`;
    }
    case 'transform_llm_output':
      return firstNonEmptyString(results) === undefined ? 'unchanged' : 'replaced';
    case 'transform_tool_result':
    case 'transform_terminal_output':
      return firstString(results) === undefined ? 'unchanged' : 'replaced';
    default:
      return results.length === 0 ? 'no result' : `${results.length} result(s)`;
  }
}
