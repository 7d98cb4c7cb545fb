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
  const out: Kwargs = {};
  if (!('args' in kwargs) && 'tool_name' in kwargs) {
    for (const [key, value] of Object.entries(kwargs)) {
      out[key] = value;
      if (key === 'tool_name') out.args = {};
    }
    return out;
  }
  for (const [key, value] of Object.entries(kwargs)) out[key] = key === 'args' ? {} : value;
  if (!('args' in out)) out.args = {};
  return out;
}
