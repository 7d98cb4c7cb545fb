import { isPlainObject } from './python-truthiness.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { errorText } from '../errors/error-text.ts';

/** A value could not be rendered as wire JSON (a cycle, or a `toString` that throws). */
export class WireJsonError extends HookgateError {
  override readonly name = 'WireJsonError';
}

export interface WireJsonOptions {
  /** Escape every non-ASCII character as `\uXXXX` (the `parsed` line of `hooks test`). */
  asciiOnly?: boolean;
}

/**
 * Renders a value as hook-semantics §0.4 "wire JSON": the single-line form Python's
 * `json.dumps` produces (`", "` and `": "` separators, insertion order, non-ASCII raw).
 * Shell hooks written for Hermes compare these bytes, so the format is exact.
 *
 * @example
 * renderWireJson({ error: 'Blocked by policy' }) // '{"error": "Blocked by policy"}'
 */
export function renderWireJson(value: unknown, options: WireJsonOptions = {}): string {
  const out = render(value, new Set());
  return options.asciiOnly ? escapeNonAscii(out) : out;
}

function render(value: unknown, seen: Set<object>): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return JSON.stringify(stringOf(value));
  }
  const obj = value as object;
  if (!Array.isArray(obj) && !isPlainObject(obj)) return JSON.stringify(stringOf(obj));
  if (seen.has(obj)) throw new WireJsonError('cyclic structure cannot be rendered as JSON');
  seen.add(obj);
  let text: string;
  if (Array.isArray(obj)) {
    // Array.from, not map: a hole is undefined (null), where map would leave it out.
    text = obj.length === 0 ? '[]' : `[${Array.from(obj, (item) => render(item, seen)).join(', ')}]`;
  } else {
    const parts = Object.keys(obj).map((key) => `${JSON.stringify(key)}: ${render((obj as Record<string, unknown>)[key], seen)}`);
    text = parts.length === 0 ? '{}' : `{${parts.join(', ')}}`;
  }
  seen.delete(obj);
  return text;
}

function stringOf(value: unknown): string {
  try {
    return String(value);
  } catch (error) {
    throw new WireJsonError(`value cannot be converted to a string: ${errorText(error)}`);
  }
}

function escapeNonAscii(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
