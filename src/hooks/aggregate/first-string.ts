/**
 * The `transform_tool_result` / `transform_terminal_output` rule (hook-semantics §1.7,
 * §1.8): the first result that is a string, **including `""`**, wins. `undefined` keeps
 * the original.
 *
 * @example
 * firstString([{ result: 'x' }, 42, '', 'later']); // ''
 */
export function firstString(results: readonly unknown[]): string | undefined {
  for (const result of results) if (typeof result === 'string') return result;
  return undefined;
}
