import { isPlainObject, isTruthy } from '../python-truthiness.ts';
import { textOf } from '../text-of.ts';
import { isObject } from './is-object.ts';

/**
 * The `pre_llm_call` context rule (hook-semantics §1.9): an object with a truthy `context`
 * contributes it as text (strings as-is, lists and plain objects as compact JSON, else `String()`);
 * a string whose trimmed form is non-empty contributes itself, untrimmed; the rest is
 * ignored, as is a result that cannot be read or turned into text (a throwing getter or
 * `toString`). Contributions are joined with a blank line. `undefined` means no context.
 *
 * @example
 * joinLlmContext([{ context: 'A' }, '  ', 'B', { context: ['x'] }]); // 'A\n\nB\n\n["x"]'
 */
export function joinLlmContext(results: readonly unknown[]): string | undefined {
  const parts: string[] = [];
  for (const result of results) {
    if (typeof result === 'string') {
      if (result.trim() !== '') parts.push(result);
      continue;
    }
    try {
      if (!isObject(result)) continue;
      const context = result.context;
      if (!isTruthy(context)) continue;
      const text = contextText(context);
      if (text !== undefined) parts.push(text);
    } catch {
      // A getter or truthiness check that throws: ignored like any other unusable result.
    }
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function contextText(context: unknown): string | undefined {
  if (typeof context === 'string') return context;
  if (Array.isArray(context) || isPlainObject(context)) {
    try {
      const json = JSON.stringify(context);
      if (json !== undefined) return json;
    } catch {
      // A cycle or a throwing toJSON: fall back to String() rather than dropping the context.
    }
  }
  return textOf(context);
}
