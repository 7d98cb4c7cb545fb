import { blockMessage, firstNonEmptyString, firstString, joinLlmContext } from '../../hooks/aggregate/index.ts';
import { rewrittenArgs } from '../../hooks/tool-call-rewrite.ts';

/** The hooks whose results decide something at their call site (the ones `hookgate replay` re-runs). */
export const DECISION_HOOKS: ReadonlySet<string> = new Set([
  'pre_tool_call',
  'pre_llm_call',
  'transform_llm_output',
  'transform_tool_result',
  'transform_terminal_output',
]);

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

/**
 * What the call site takes from a decision hook's results, in full: the block message, the
 * injected context, the replacement text; `undefined` when it takes nothing. Two runs decide
 * alike when their {@link describeDecision} and this agree (a context of the same length but
 * other words is a different decision).
 *
 * @example
 * decisionContent('pre_llm_call', [{ context: 'A' }, 'B']) // 'A\n\nB'
 */
export function decisionContent(hook: string, results: readonly unknown[]): string | undefined {
  switch (hook) {
    case 'pre_tool_call':
      return blockMessage(results);
    case 'pre_llm_call':
      return joinLlmContext(results);
    case 'transform_llm_output':
      return firstNonEmptyString(results);
    case 'transform_tool_result':
    case 'transform_terminal_output':
      return firstString(results);
    default:
      return undefined;
  }
}
