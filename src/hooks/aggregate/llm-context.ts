import { isTruthy } from '../python-truthiness.ts';
import { isObject } from './is-object.ts';

/**
 * The `pre_llm_call` context rule (hook-semantics §1.9): an object with a truthy `context`
 * contributes it as text (strings as-is, lists/objects as compact JSON, else `String()`);
 * a string whose trimmed form is non-empty contributes itself, untrimmed; the rest is
 * ignored. Contributions are joined with a blank line. `undefined` means no context.
 *
 * @example
 * joinLlmContext([{ context: 'A' }, '  ', 'B', { context: ['x'] }]); // 'A\n\nB\n\n["x"]'
 */
export function joinLlmContext(results: readonly unknown[]): string | undefined {
  const parts: string[] = [];
  for (const result of results) {
    if (typeof result === 'string') {
      if (result.trim() !== '') parts.push(result);
    } else if (isObject(result) && isTruthy(result.context)) {
      parts.push(contextText(result.context));
    }
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function contextText(context: unknown): string {
  if (typeof context === 'string') return context;
  if (typeof context === 'object' && context !== null) {
    try {
      const json = JSON.stringify(context);
      if (json !== undefined) return json;
    } catch {
      // A cycle or a throwing toJSON: fall back to String() rather than dropping the context.
    }
  }
  return String(context);
}
