import * as z from 'zod';
import type { HookName } from './catalogue.ts';

/**
 * The kwargs of each of the 19 plugin hooks, in the key order of hook-semantics §1.5–§1.15.
 * Key order is part of the contract (shell hooks receive it over the wire, §0.2), so call
 * sites build kwargs with {@link orderKwargs} rather than by hand.
 */
export const KWARGS_KEY_ORDER = {
  pre_tool_call: ['tool_name', 'args', 'task_id', 'session_id', 'tool_call_id', 'turn_id', 'api_request_id', 'middleware_trace'],
  post_tool_call: [
    'tool_name', 'args', 'result', 'task_id', 'session_id', 'tool_call_id', 'turn_id', 'api_request_id',
    'duration_ms', 'status', 'error_type', 'error_message', 'middleware_trace',
  ],
  transform_tool_result: [
    'tool_name', 'args', 'result', 'task_id', 'session_id', 'tool_call_id', 'turn_id', 'api_request_id',
    'duration_ms', 'status', 'error_type', 'error_message',
  ],
  transform_terminal_output: ['command', 'output', 'returncode', 'task_id', 'env_type'],
  transform_llm_output: ['response_text', 'session_id', 'model', 'platform'],
  pre_llm_call: [
    'session_id', 'task_id', 'turn_id', 'user_message', 'conversation_history', 'is_first_turn', 'model', 'platform', 'sender_id',
  ],
  post_llm_call: [
    'session_id', 'task_id', 'turn_id', 'user_message', 'assistant_response', 'conversation_history', 'model', 'platform',
  ],
  pre_api_request: [
    'task_id', 'turn_id', 'api_request_id', 'session_id', 'user_message', 'conversation_history', 'platform', 'model',
    'provider', 'base_url', 'api_mode', 'api_call_count', 'request_messages', 'message_count', 'tool_count',
    'approx_input_tokens', 'request_char_count', 'max_tokens', 'started_at', 'middleware_trace', 'request',
  ],
  post_api_request: [
    'task_id', 'turn_id', 'api_request_id', 'session_id', 'platform', 'model', 'provider', 'base_url', 'api_mode',
    'api_call_count', 'api_duration', 'started_at', 'ended_at', 'finish_reason', 'message_count', 'response_model',
    'response', 'usage', 'assistant_message', 'assistant_content_chars', 'assistant_tool_call_count',
  ],
  api_request_error: [
    'task_id', 'turn_id', 'api_request_id', 'session_id', 'platform', 'model', 'provider', 'base_url', 'api_mode',
    'api_call_count', 'api_duration', 'started_at', 'ended_at', 'status_code', 'retry_count', 'max_retries',
    'retryable', 'reason', 'error', 'request',
  ],
  on_session_start: ['session_id', 'model', 'platform'],
  on_session_end: ['session_id', 'task_id', 'turn_id', 'completed', 'interrupted', 'model', 'platform'],
  on_session_finalize: ['session_id', 'platform', 'reason', 'old_session_id', 'new_session_id'],
  on_session_reset: ['session_id', 'platform', 'reason', 'old_session_id', 'new_session_id'],
  subagent_start: [
    'parent_session_id', 'parent_turn_id', 'parent_subagent_id', 'child_session_id', 'child_subagent_id', 'child_role', 'child_goal',
  ],
  subagent_stop: [
    'parent_session_id', 'parent_turn_id', 'child_session_id', 'child_role', 'child_summary', 'child_status', 'duration_ms',
  ],
  pre_gateway_dispatch: ['event', 'gateway', 'session_store'],
  pre_approval_request: ['command', 'description', 'pattern_key', 'pattern_keys', 'session_key', 'surface'],
  post_approval_response: ['command', 'description', 'pattern_key', 'pattern_keys', 'session_key', 'surface', 'choice'],
} as const satisfies Record<HookName, readonly string[]>;

// Field types shared by several hooks. Every key is optional: callers outside the
// process (the `/v1` API, `hooks test` payloads) send partial kwargs, and callbacks must
// tolerate both missing and unknown keys (§0.2). What is present must have the right type.
const idString = z.string();
const nullableString = z.string().nullable();
const list = z.array(z.unknown());
const count = z.number().int();
const seconds = z.number();

const toolCallFields = {
  tool_name: z.string(),
  /** Anything that is not a plain object becomes `{}` at the call site (§1.5). */
  args: z.unknown(),
  task_id: idString,
  session_id: idString,
  tool_call_id: idString,
  turn_id: idString,
  api_request_id: idString,
};
const toolResultFields = {
  result: z.string(),
  duration_ms: count.min(0),
  status: z.string(),
  error_type: nullableString,
  error_message: nullableString,
};
const modelRequestFields = {
  task_id: idString,
  turn_id: idString,
  api_request_id: idString,
  session_id: idString,
  platform: z.string(),
  model: z.string(),
  provider: z.string(),
  base_url: z.string(),
  api_mode: z.string(),
  api_call_count: count,
};
const approvalFields = {
  command: z.string(),
  description: z.string(),
  pattern_key: z.string().nullable(),
  pattern_keys: z.array(z.string()),
  session_key: z.string(),
  surface: z.string(),
};

function kwargs<const Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape).partial();
}

/**
 * zod schemas of each hook's kwargs: loose (unknown keys pass), every key optional, the
 * present keys type-checked. Parsing does not preserve the caller's key order; validate
 * with these, then pass the original object (or {@link orderKwargs}) to the engine.
 *
 * @example
 * const parsed = KWARGS_SCHEMAS.pre_tool_call.safeParse(body);
 * if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
 */
export const KWARGS_SCHEMAS = {
  pre_tool_call: kwargs({ ...toolCallFields, middleware_trace: list }),
  post_tool_call: kwargs({ ...toolCallFields, ...toolResultFields, middleware_trace: list }),
  transform_tool_result: kwargs({ ...toolCallFields, ...toolResultFields }),
  transform_terminal_output: kwargs({
    command: z.string(),
    output: z.string(),
    returncode: count,
    task_id: idString,
    env_type: z.string(),
  }),
  transform_llm_output: kwargs({ response_text: z.string(), session_id: idString, model: z.string(), platform: z.string() }),
  pre_llm_call: kwargs({
    session_id: idString,
    task_id: idString,
    turn_id: idString,
    user_message: z.string(),
    conversation_history: list,
    is_first_turn: z.boolean(),
    model: z.string(),
    platform: z.string(),
    sender_id: z.string(),
  }),
  post_llm_call: kwargs({
    session_id: idString,
    task_id: idString,
    turn_id: idString,
    user_message: z.string(),
    assistant_response: z.string(),
    conversation_history: list,
    model: z.string(),
    platform: z.string(),
  }),
  pre_api_request: kwargs({
    ...modelRequestFields,
    user_message: z.unknown(),
    conversation_history: list,
    request_messages: list,
    message_count: count,
    tool_count: count,
    approx_input_tokens: count,
    request_char_count: count,
    max_tokens: count.nullable(),
    started_at: seconds,
    middleware_trace: list,
    request: z.unknown(),
  }),
  post_api_request: kwargs({
    ...modelRequestFields,
    api_duration: seconds,
    started_at: seconds,
    ended_at: seconds,
    finish_reason: z.string().nullable(),
    message_count: count,
    response_model: z.string().nullable(),
    response: z.unknown(),
    usage: z.unknown(),
    assistant_message: z.unknown(),
    assistant_content_chars: count,
    assistant_tool_call_count: count,
  }),
  api_request_error: kwargs({
    ...modelRequestFields,
    api_duration: seconds,
    started_at: seconds,
    ended_at: seconds,
    status_code: z.number().nullable(),
    retry_count: count,
    max_retries: count,
    retryable: z.boolean().nullable(),
    reason: z.string(),
    error: z.unknown(),
    request: z.unknown(),
  }),
  on_session_start: kwargs({ session_id: idString, model: z.string(), platform: z.string() }),
  on_session_end: kwargs({
    session_id: idString,
    task_id: idString,
    turn_id: idString,
    completed: z.boolean(),
    interrupted: z.boolean(),
    model: z.string(),
    platform: z.string(),
  }),
  on_session_finalize: kwargs({
    session_id: nullableString,
    platform: z.string(),
    reason: z.string(),
    old_session_id: nullableString,
    new_session_id: nullableString,
  }),
  on_session_reset: kwargs({
    session_id: nullableString,
    platform: z.string(),
    reason: z.string(),
    old_session_id: nullableString,
    new_session_id: nullableString,
  }),
  subagent_start: kwargs({
    parent_session_id: nullableString,
    parent_turn_id: idString,
    parent_subagent_id: nullableString,
    child_session_id: nullableString,
    child_subagent_id: z.string(),
    child_role: nullableString,
    child_goal: z.string(),
  }),
  subagent_stop: kwargs({
    parent_session_id: nullableString,
    parent_turn_id: idString,
    child_session_id: nullableString,
    child_role: nullableString,
    child_summary: nullableString,
    child_status: z.string(),
    duration_ms: count.min(0),
  }),
  pre_gateway_dispatch: kwargs({ event: z.unknown(), gateway: z.unknown(), session_store: z.unknown() }),
  pre_approval_request: kwargs(approvalFields),
  post_approval_response: kwargs({ ...approvalFields, choice: z.string() }),
} satisfies Record<HookName, z.ZodType>;

/**
 * Builds a kwargs object in the spec's key order for `hook`: the known keys present in
 * `values` (an `undefined` value counts as absent) first, in table order, then any other
 * keys in their own order. Unknown hook names keep `values`' order.
 *
 * @example
 * orderKwargs('transform_llm_output', { platform: 'cli', response_text: 'hi', model: 'm', session_id: '' });
 * // { response_text: 'hi', session_id: '', model: 'm', platform: 'cli' }
 */
export function orderKwargs(hook: string, values: Record<string, unknown>): Record<string, unknown> {
  const order: readonly string[] | undefined = (KWARGS_KEY_ORDER as Record<string, readonly string[]>)[hook];
  const out: Record<string, unknown> = {};
  if (order) {
    for (const key of order) if (values[key] !== undefined && Object.hasOwn(values, key)) out[key] = values[key];
  }
  for (const key of Object.keys(values)) {
    if (!Object.hasOwn(out, key) && values[key] !== undefined) out[key] = values[key];
  }
  return out;
}
