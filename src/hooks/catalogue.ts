/**
 * The 19 plugin-hook names of the Hermes contract and what their return values mean
 * (hook-semantics §0.6, §1.4).
 */

/** Decision hooks have their results read by the call site; observer results are ignored. */
export type HookKind = 'decision' | 'observer';

export const HOOK_KINDS = {
  pre_tool_call: 'decision',
  post_tool_call: 'observer',
  transform_tool_result: 'decision',
  transform_terminal_output: 'decision',
  transform_llm_output: 'decision',
  pre_llm_call: 'decision',
  post_llm_call: 'observer',
  pre_api_request: 'observer',
  post_api_request: 'observer',
  api_request_error: 'observer',
  on_session_start: 'observer',
  on_session_end: 'observer',
  on_session_finalize: 'observer',
  on_session_reset: 'observer',
  subagent_start: 'observer',
  subagent_stop: 'observer',
  pre_gateway_dispatch: 'decision',
  pre_approval_request: 'observer',
  post_approval_response: 'observer',
} as const satisfies Record<string, HookKind>;

export type HookName = keyof typeof HOOK_KINDS;

/** Sorted by code point, the order every "valid: …" message prints. */
export const HOOK_NAMES: readonly HookName[] = (Object.keys(HOOK_KINDS) as HookName[]).sort((a, b) =>
  a < b ? -1 : a > b ? 1 : 0,
);

/** `a, b, c` — the list printed wherever the spec says "lists the valid names". */
export const VALID_HOOK_NAMES_TEXT = HOOK_NAMES.join(', ');

export function isHookName(name: unknown): name is HookName {
  return typeof name === 'string' && Object.hasOwn(HOOK_KINDS, name);
}

/** Kind of a hook; unknown names (stored for forward compatibility) are observers. */
export function hookKind(name: string): HookKind {
  return isHookName(name) ? HOOK_KINDS[name] : 'observer';
}

/** The value added to every invocation's kwargs when the caller did not supply one (§1.3). */
export const TELEMETRY_SCHEMA_VERSION = 'hermes.observer.v1';

export { KWARGS_KEY_ORDER, KWARGS_SCHEMAS, orderKwargs } from './kwargs-schemas.ts';
