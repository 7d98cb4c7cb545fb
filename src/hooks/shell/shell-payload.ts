import { renderWireJson } from '../wire-json.ts';
import { isPlainObject, isTruthy } from '../python-truthiness.ts';
import { PayloadSerialisationError } from './spawn/shell-errors.ts';
import { currentDirectory } from './spawn/current-directory.ts';
import { errorText } from '../../errors/error-text.ts';

const NOT_EXTRA = new Set(['tool_name', 'args', 'session_id', 'parent_session_id']);

/**
 * The stdin payload of a shell hook (hook-semantics §3.6), rendered as wire JSON: the exact
 * bytes Hermes writes, key order included. Throws {@link PayloadSerialisationError} when the
 * kwargs cannot be rendered (e.g. a cycle).
 *
 * @example
 * renderShellPayload('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's-1' }, '/proj')
 * // '{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "session_id": "s-1", "cwd": "/proj", "extra": {}}'
 */
export function renderShellPayload(event: string, kwargs: Record<string, unknown>, cwd: string = currentDirectory()): string {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(kwargs)) {
    if (NOT_EXTRA.has(key)) continue;
    // An own `__proto__` key (JSON.parse makes one from outside input) is a key like any other; assigned, it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(extra, key, { value: kwargs[key], enumerable: true, writable: true, configurable: true });
    else extra[key] = kwargs[key];
  }
  const sessionId = isTruthy(kwargs.session_id)
    ? kwargs.session_id
    : isTruthy(kwargs.parent_session_id)
      ? kwargs.parent_session_id
      : '';
  const payload = {
    hook_event_name: event,
    tool_name: kwargs.tool_name ?? null,
    tool_input: isPlainObject(kwargs.args) ? kwargs.args : null,
    session_id: sessionId,
    cwd,
    extra,
  };
  try {
    return renderWireJson(payload);
  } catch (error) {
    throw new PayloadSerialisationError(errorText(error));
  }
}
