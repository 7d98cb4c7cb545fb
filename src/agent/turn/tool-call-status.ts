import { isPlainObject, isTruthy } from '../../hooks/python-truthiness.ts';
import { renderWireJson } from '../../hooks/wire-json.ts';

export interface ToolCallStatus {
  status: 'ok' | 'error' | 'blocked';
  error_type: string | null;
  error_message: string | null;
}

/**
 * §1.6: a result that is (or parses as) an object with a truthy `error` is an error; its
 * error is reported as a string (non-strings as wire JSON). Everything else is ok.
 *
 * @example
 * toolCallStatusOf('{"error": "no such file"}') // { status: 'error', error_type: 'tool_error', error_message: 'no such file' }
 */
export function toolCallStatusOf(result: unknown): ToolCallStatus {
  let value = result;
  if (typeof result === 'string') {
    try {
      value = JSON.parse(result);
    } catch {
      value = undefined;
    }
  }
  if (isPlainObject(value) && isTruthy(value.error)) {
    const error = value.error;
    return {
      status: 'error',
      error_type: 'tool_error',
      error_message: typeof error === 'string' ? error : renderWireJson(error),
    };
  }
  return { status: 'ok', error_type: null, error_message: null };
}
