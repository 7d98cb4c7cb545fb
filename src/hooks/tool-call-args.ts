import type { Kwargs } from './hook-engine.ts';
import { isPlainObject } from './python-truthiness.ts';

/**
 * `pre_tool_call` kwargs with `args` as an object (hook-semantics §1.5): anything that is
 * not a plain object — a list, a string, a number, absent — becomes `{}`, so callbacks get
 * `{}` and a shell hook's `tool_input` is `{}` (§3.6). Key order is kept (`args` after
 * `tool_name` when it was absent).
 *
 * @example
 * withObjectArgs({ tool_name: 'terminal', args: ['ls'] }) // { tool_name: 'terminal', args: {} }
 */
export function withObjectArgs(kwargs: Kwargs): Kwargs {
  if (isPlainObject(kwargs.args)) return kwargs;
  // Built from entries, never by assignment: an own `__proto__` key (JSON.parse makes one from
  // outside input) stays a key instead of becoming the copy's prototype.
  const entries = Object.entries(kwargs).map(([key, value]): [string, unknown] => [key, key === 'args' ? {} : value]);
  if (!Object.hasOwn(kwargs, 'args')) {
    const toolName = entries.findIndex(([key]) => key === 'tool_name');
    entries.splice(toolName === -1 ? entries.length : toolName + 1, 0, ['args', {}]);
  }
  return Object.fromEntries(entries);
}
