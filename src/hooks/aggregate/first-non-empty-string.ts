/**
 * The `transform_llm_output` rule (hook-semantics §1.10): the first **non-empty** string
 * wins; `""` and non-strings are skipped. `undefined` keeps the response unchanged.
 *
 * @example
 * firstNonEmptyString([null, '', {}, 123, 'first-winner', 'second']); // 'first-winner'
 */
export function firstNonEmptyString(results: readonly unknown[]): string | undefined {
  for (const result of results) if (typeof result === 'string' && result !== '') return result;
  return undefined;
}
