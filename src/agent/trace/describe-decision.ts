import { decisionTraceOf, HOOK_NAMES, hookKind } from '../../hooks/catalogue.ts';

/**
 * The plugin hooks whose results decide something at their call site: for a trace recorded
 * before calls had a phase, the calls `hookgate replay` re-runs.
 */
export const DECISION_HOOKS: ReadonlySet<string> = new Set(HOOK_NAMES.filter((name) => hookKind(name) === 'decision'));

/**
 * A short word for what a decision hook's results mean at its call site, for traces (the
 * hook's `trace.describe` in the catalogue).
 *
 * @example
 * describeDecision('pre_tool_call', [{ action: 'block', message: 'no' }]) // 'block: no'
 */
export function describeDecision(hook: string, results: readonly unknown[]): string {
  return decisionTraceOf(hook).describe(results);
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
  return decisionTraceOf(hook).content(results);
}

/**
 * What `hookgate replay` says of a call whose outcome word agrees but whose content does not
 * (`context changed`, `transform changed`, `decision changed`).
 *
 * @example
 * decisionChange('transform_llm_output') // 'transform changed'
 */
export function decisionChange(hook: string): string {
  return decisionTraceOf(hook).changed;
}
