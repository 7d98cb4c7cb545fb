import { HOOKS } from './hooks.ts';

/** Each hook's kwargs keys in contract order (the catalogue's `keys`: no schema is built for them). */
const KEY_ORDER: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(HOOKS).map(([name, definition]) => [name, definition.keys]),
);

/**
 * Builds a kwargs object in the spec's key order for `hook`: the known keys present in
 * `values` (an `undefined` value counts as absent) first, in the schema's order, then any
 * other keys in their own order. Unknown hook names keep `values`' order.
 *
 * @example
 * orderKwargs('transform_llm_output', { platform: 'cli', response_text: 'hi', model: 'm', session_id: '' });
 * // { response_text: 'hi', session_id: '', model: 'm', platform: 'cli' }
 */
export function orderKwargs(hook: string, values: Record<string, unknown>): Record<string, unknown> {
  const order = KEY_ORDER.get(hook) ?? [];
  const out: Record<string, unknown> = {};
  for (const key of order) if (values[key] !== undefined && Object.hasOwn(values, key)) out[key] = values[key];
  for (const key of Object.keys(values)) {
    if (!Object.hasOwn(out, key) && values[key] !== undefined) out[key] = values[key];
  }
  return out;
}
