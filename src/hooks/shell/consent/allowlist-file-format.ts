import { isPlainObject } from '../../python-truthiness.ts';

/**
 * Renders the allowlist file (hook-semantics §3.9) exactly as Hermes writes it — Python's
 * `json.dumps(data, indent=2, sort_keys=True)`: keys sorted by code point at every level,
 * two-space indent, `": "`, non-ASCII as lower-case `\uXXXX` (surrogate pairs beyond the
 * BMP), no trailing newline. Both programs may share one hooks home, so the bytes matter.
 *
 * @example
 * renderAllowlistFile({ approvals: [] }) // '{\n  "approvals": []\n}'
 */
export function renderAllowlistFile(data: Record<string, unknown>): string {
  return render(data, '');
}

function render(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = `${indent}  `;
    return `[\n${value.map((item) => inner + render(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(byCodePoint);
    if (keys.length === 0) return '{}';
    const inner = `${indent}  `;
    return `{\n${keys.map((k) => `${inner}${asciiJson(k)}: ${render(value[k], inner)}`).join(',\n')}\n${indent}}`;
  }
  if (typeof value === 'string') return asciiJson(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return 'null';
}

/** JSON string with everything outside printable ASCII escaped, as `ensure_ascii=True`. */
function asciiJson(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python compares str by code point; JS `<` compares UTF-16 units (differs past the BMP). */
function byCodePoint(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}
