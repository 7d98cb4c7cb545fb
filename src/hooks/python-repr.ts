import { isPlainObject } from './python-truthiness.ts';

/**
 * A Python-`repr`-like rendering for messages that the reference prints with `{value}`
 * (e.g. the event list of `[hooks] Loaded hook 'x' for events: ['agent:start']`).
 *
 * @example
 * pythonRepr(['agent:start', 'command:*']); // "['agent:start', 'command:*']"
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${quote(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function quote(text: string): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (!text.includes("'") || text.includes('"')) return `'${escaped.replace(/'/g, "\\'")}'`;
  return `"${escaped}"`;
}
