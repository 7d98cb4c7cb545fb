import type { AnswerOf, HookName } from './hook-types.ts';
import { HOOKS } from './hooks.ts';

/**
 * The aggregated answer of one hook's results, exactly as `POST /v1/hooks/{hook}` answers
 * it (architecture §4): the decision hook's aggregation rule from the catalogue; observer
 * hooks answer `{}`.
 *
 * @example
 * hookAnswer('pre_tool_call', [{ action: 'block', message: 'no' }]); // { action: 'block', message: 'no' }
 * hookAnswer('transform_llm_output', ['', 'x']); // { response_text: 'x' }
 */
export function hookAnswer<H extends HookName>(hook: H, results: readonly unknown[]): AnswerOf<H> {
  // `?.`: a JavaScript caller of the library may pass an unknown name; it answers `{}` like an observer.
  const definition = HOOKS[hook] as (typeof HOOKS)[HookName] | undefined;
  // The compiler cannot follow the conditional AnswerOf through the table lookup; HOOKS is its source.
  return (definition?.kind === 'decision' ? definition.answer(results) : {}) as AnswerOf<H>;
}
